import Dispatch
import Domain
import Synchronization

/// Live per-source progress for a terminal (stderr): one line per source, redrawn in place at most
/// every `interval` while the run goes on, and wiped by `finish()` so the final output starts clean.
///
/// Only for a TTY: it moves the cursor with ANSI sequences. Nothing is drawn before the first tick, so a
/// run that ends within `interval` leaves no flicker. After `finish()` nothing more is written.
public final class ProgressRenderer: Sendable {
    private static let spinner = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    private struct State {
        var latest: AggregateViewState?
        var isDirty = false
        var isFinished = false
        var linesDrawn = 0
        var frame = 0
        /// Timer ticks so far, drawn or not (tests wait on it instead of sleeping).
        var ticks = 0
        var loadingSince: [String: DispatchTime] = [:]
        var timer: (any DispatchSourceTimer)?
    }

    private let output: @Sendable (String) -> Void
    private let width: Int
    private let color: Bool
    private let interval: Double
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "aggregate.progress")

    /// - Parameters:
    ///   - output: writes text to the terminal (stderr), unbuffered.
    ///   - width: terminal columns; lines are cut to fit, since a wrapped line would break the redraw.
    ///   - color: colour the status symbols.
    ///   - interval: seconds between redraws (0.1 = at most 10 per second).
    public init(
        output: @escaping @Sendable (String) -> Void, width: Int = 80, color: Bool = true, interval: Double = 0.1
    ) {
        self.output = output
        self.width = max(width, 10)
        self.color = color
        self.interval = interval
    }

    deinit {
        // A dropped renderer must not leave its timer firing into nothing.
        state.withLock { $0.timer }?.cancel()
    }

    /// Starts following `viewModel`. Call once, before the run starts.
    public func attach(to viewModel: AggregateViewModel) {
        let started = state.withLock { state in
            guard !state.isFinished, state.timer == nil else { return false }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + interval, repeating: interval)
            timer.setEventHandler { [weak self] in self?.tick() }
            timer.resume()  // here, not later: a suspended source must never be released (a finish() meanwhile)
            state.timer = timer
            return true
        }
        guard started else { return }
        viewModel.observe { [weak self] viewState in self?.receive(viewState) }
    }

    /// Stops drawing and clears the progress lines. Idempotent.
    public func finish() {
        let (finishing, timer) = state.withLock { state -> (Bool, (any DispatchSourceTimer)?) in
            guard !state.isFinished else { return (false, nil) }
            state.isFinished = true
            defer { state.timer = nil }
            return (true, state.timer)
        }
        guard finishing else { return }
        timer?.cancel()
        // On the timer's serial queue, after a tick that may be drawing now: its lines are out before they are
        // cleared, and nothing is written under the lock.
        queue.sync {
            let drawn = state.withLock { state in
                defer { state.linesDrawn = 0 }
                return state.linesDrawn
            }
            if drawn > 0 { output("\r\u{1B}[\(drawn)A\u{1B}[J") }
        }
    }

    private func receive(_ viewState: AggregateViewState) {
        let now = DispatchTime.now()
        state.withLock { state in
            guard !state.isFinished else { return }
            for row in viewState.rows where !row.isFinished && state.loadingSince[row.id] == nil {
                state.loadingSince[row.id] = now
            }
            state.latest = viewState
            state.isDirty = true
        }
    }

    /// How often the timer fired so far, whether it drew or not.
    public var ticks: Int { state.withLock { $0.ticks } }

    /// Runs on `queue` (the timer's); writes outside the lock, in order, since the queue is serial.
    private func tick() {
        let now = DispatchTime.now()
        let text: String? = state.withLock { state in
            state.ticks += 1
            guard !state.isFinished, let latest = state.latest, !latest.rows.isEmpty else { return nil }  // nothing to draw yet
            let isLoading = latest.rows.contains { !$0.isFinished }
            guard state.isDirty || isLoading else { return nil }  // spinner and clocks move only while loading
            state.isDirty = false
            state.frame += 1
            let lines = latest.rows.map { row in
                let elapsed = state.loadingSince[row.id].map { Double(now.uptimeNanoseconds - $0.uptimeNanoseconds) / 1e9 }
                return line(for: row, frame: state.frame, elapsed: elapsed)
            }
            var text = state.linesDrawn > 0 ? "\r\u{1B}[\(state.linesDrawn)A" : "\r"
            for line in lines { text += "\u{1B}[2K" + line + "\n" }
            if lines.count < state.linesDrawn { text += "\u{1B}[J" }
            state.linesDrawn = lines.count
            return text
        }
        if let text { output(text) }
    }

    /// `⠋ notes (files) loading · 12 items · 1.2 s`, `● notes (files) ok · 3 items · 4 ms`, cut to the width.
    func line(for row: SourceRow, frame: Int, elapsed: Double?) -> String {
        let symbol: String
        var parts = ["\(row.id) (\(row.provider))"]
        switch row.phase {
        case .loading:
            symbol = ANSIStyle.cyan.apply(String(Self.spinner[frame % Self.spinner.count]), enabled: color)
            parts[0] += " loading"
            if row.itemCount > 0 { parts.append(HumanFormat.count(row.itemCount, "item")) }
            if let elapsed { parts.append(HumanFormat.duration(elapsed)) }
        case .finished(let status):
            symbol = TableRenderer.style(for: status).apply(TableRenderer.symbol(for: status), enabled: color)
            parts[0] += " \(status.rawValue)"
            if let message = row.message { parts.append(message) }
            if status != .skipped || row.itemCount > 0 { parts.append(HumanFormat.count(row.itemCount, "item")) }
            if status != .skipped, let duration = row.duration { parts.append(HumanFormat.duration(duration)) }
        }
        // One column short of the width: writing the last column makes some terminals wrap early.
        let text = TerminalText.sanitized(parts.joined(separator: " · "))
        return symbol + " " + TerminalText.truncated(text, to: width - 3)
    }
}
