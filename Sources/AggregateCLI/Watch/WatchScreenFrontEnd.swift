import App
import Domain
import Foundation
import Presentation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The full-screen view (stdout is a terminal): the alternate screen, redrawn in place at most
/// `framesPerSecond` times a second and only where something changed; `r` refreshes every source now, `q`
/// quits; a resize re-lays out. The terminal is restored on exit, on Ctrl-C and on a crash (`ScreenRestore`).
final class WatchScreenFrontEnd: WatchFrontEnd {
    private struct State {
        var model: WatchViewModel?
        var diff = ScreenDiff()
        var drawnVersion = -1
        var lastDraw = Date.distantPast
        var needsFullRedraw = true
        var isEnded = false
        /// The redraw timer and the resize signal; cancelled by `end`.
        var events: ScreenEvents?
    }

    static let framesPerSecond = 4.0

    private let color: Bool
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "aggregate.watch.screen")

    var wantsEveryItem: Bool { true }

    init(color: Bool) {
        self.color = color
    }

    func begin(watcher: Watcher, sources: [String], onQuit: @escaping @Sendable () -> Void) {
        state.withLock { $0.model = WatchViewModel(sources: sources) }
        ScreenRestore.enter()
        Keys.read { key in
            switch key {
            case "q", "Q": onQuit()
            case "r", "R": watcher.refreshAll()
            default: break
            }
        }
        signal(SIGWINCH, SIG_IGN)  // delivered to the dispatch source
        let sources = ScreenEvents(queue: queue, framesPerSecond: Self.framesPerSecond)
        sources.start(
            onResize: { [self] in
                state.withLock { $0.needsFullRedraw = true }
                draw()
            },
            onTick: { [self] in draw() })
        state.withLock { $0.events = sources }
    }

    func reloaded(sources: [String]) {
        state.withLock { $0.model }?.replaceSources(sources)
    }

    func watchDidStart(_ ids: [String]) {
        state.withLock { $0.model }?.sourcesDidStart(ids)
    }

    func watch(didFinish report: SourceReport, next: Date?, news: NewItems) {
        state.withLock { $0.model }?.source(didFinish: report, next: next, newItemIDs: news.marked)
    }

    func end() {
        state.withLock { state in
            state.isEnded = true
            state.events?.cancel()  // no wait: a handler running now finds the view ended
            state.events = nil
        }
        queue.sync {}  // a frame being written is finished before the screen is switched back
        Keys.stop()
        ScreenRestore.leave()
    }

    /// On the screen's queue: a frame when the model changed, or once a second for the ages and countdowns.
    private func draw() {
        let now = Date()
        let frame: String? = state.withLock { state in
            guard !state.isEnded, let model = state.model else { return nil }
            let (sources, version) = model.snapshot
            guard state.needsFullRedraw || version != state.drawnVersion || now.timeIntervalSince(state.lastDraw) >= 1 else {
                return nil
            }
            let size = Self.terminalSize()
            let screen = WatchScreen(width: size.columns, height: size.rows, color: color)
            let text = state.diff.update(to: screen.lines(sources, now: now), full: state.needsFullRedraw)
            (state.drawnVersion, state.lastDraw, state.needsFullRedraw) = (version, now, false)
            return text
        }
        if let frame, !frame.isEmpty { ScreenRestore.write(frame) }
    }

    private static func terminalSize() -> (columns: Int, rows: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }
}

/// The keyboard while the view is up: stdin in non-canonical mode without echo (Ctrl-C still interrupts),
/// read on a thread of its own.
enum Keys {
    /// Starts reading; `handle` gets each key as typed.
    static func read(_ handle: @escaping @Sendable (Character) -> Void) {
        guard isatty(STDIN_FILENO) == 1 else { return }
        ScreenRestore.makeRaw()
        let thread = Thread {
            var byte: UInt8 = 0
            while Foundation.read(STDIN_FILENO, &byte, 1) == 1 {
                handle(Character(Unicode.Scalar(byte)))
            }
        }
        thread.name = "aggregate.keys"
        thread.start()
    }

    /// The reader thread is left blocked in `read`: the process is about to exit.
    static func stop() {}
}

/// The view's two event sources on its queue: the redraw timer and SIGWINCH.
final class ScreenEvents: @unchecked Sendable {
    // @unchecked: both sources are `let`s made in `init`; their handlers are set once in `start`, before
    // `resume`, and afterwards only `cancel()` is called, which Dispatch allows from any thread.
    private let timer: any DispatchSourceTimer
    private let resize: any DispatchSourceSignal
    private let framesPerSecond: Double

    init(queue: DispatchQueue, framesPerSecond: Double) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
        self.framesPerSecond = framesPerSecond
    }

    func start(onResize: @escaping @Sendable () -> Void, onTick: @escaping @Sendable () -> Void) {
        resize.setEventHandler(handler: onResize)
        timer.setEventHandler(handler: onTick)
        timer.schedule(deadline: .now(), repeating: 1 / framesPerSecond)
        resize.resume()
        timer.resume()
    }

    func cancel() {
        timer.cancel()
        resize.cancel()
    }
}
