import Domain
import Foundation
import Synchronization

/// What a watch tells its front end, from any thread (never two calls at once for one source).
public protocol WatchObserver: Sendable {
    /// `ids` start loading.
    func watchDidStart(_ ids: [String])
    /// A source finished a cycle (after the store's part); `next` is when it runs again. `news`: which of its
    /// items are new, the engine's answer (a watch of `.all` items; `.none` with `.new`, whose items are the new
    /// ones).
    func watch(didFinish report: SourceReport, next: Date?, news: NewItems)
    /// A run's sinks queued and sent what was new for them (only with sinks in the manifest).
    func watch(didDeliver sinks: [SinkReport])
}

extension WatchObserver {
    public func watch(didDeliver sinks: [SinkReport]) {}
}

/// `aggregate watch`: keeps running the manifest's sources, each on its own schedule (`WatchSchedule`),
/// through the one run engine (`RunEngine`), until stopped.
///
/// Every wake-up runs the sources that are due as one run. Each source's first cycle shows everything it has
/// (or, with `newOnlyFromStart`, only what it never delivered before); later cycles only new items, by the
/// store's history, so a stream of items says each one once. The response cache keeps working across cycles,
/// so an unchanged feed costs a 304. A watch of `.all` items asks the engine which are new (`ItemNewness`).
public final class Watcher: Sendable {
    public struct Options: Sendable {
        /// What each cycle delivers.
        public enum Items: Sendable, Hashable {
            /// Each item once, when first seen (by the store's history); `fromStart`: the first cycle too
            /// (`--new-only`), else the first cycle delivers everything.
            case new(fromStart: Bool)
            /// Every cycle delivers each source's whole result (a view, a report per cycle).
            case all
        }

        /// `--sources`; nil watches every enabled source.
        public var selection: [String]?
        public var items: Items
        /// Each run's output: a new `CollectedOutput` when the front end wants reports, or the same
        /// `StreamedOutput` for every run (NDJSON), whose `--dedupe` then spans the whole watch (a story a second
        /// feed carries a cycle later is not printed again).
        public var output: @Sendable () -> any RunOutput

        public init(
            selection: [String]? = nil, items: Items = .new(fromStart: false),
            output: @escaping @Sendable () -> any RunOutput = { CollectedOutput() }
        ) {
            self.selection = selection
            self.items = items
            self.output = output
        }
    }

    private struct State {
        var container: AppDIContainer
        var schedule: WatchSchedule
        var random = SystemRandomNumberGenerator()
        /// Sources that finished at least one cycle (their later cycles show only new items).
        var cycled: Set<String> = []
        var runsInFlight = 0
        var isStopping = false
        var stopped: [@Sendable () -> Void] = []
        /// Bumped whenever the timer is re-armed: an older timer that fires finds itself outdated.
        var timerGeneration = 0
    }

    private let options: Options
    private let observer: (any WatchObserver)?
    private let clock: any TimerClock
    private let state: Mutex<State>
    private let newness = ItemNewness()
    private let upkeep = ArchiveUpkeep()
    /// Cancels the runs in flight when the watch stops.
    private let cancellation = CancellationToken()

    /// - Throws: a `--sources` selection that does not fit the manifest.
    public init(
        container: AppDIContainer, options: Options, observer: (any WatchObserver)? = nil,
        clock: any TimerClock = SystemClock()
    ) throws(SelectionError) {
        self.options = options
        self.observer = observer
        self.clock = clock
        var random = SystemRandomNumberGenerator()
        let sources = try Self.watched(in: container, selection: options.selection)
        self.state = Mutex(State(
            container: container, schedule: WatchSchedule(sources: sources, now: clock.now, random: &random)))
    }

    /// The sources a watch runs: those selected (or every enabled one) with their intervals.
    static func watched(
        in container: AppDIContainer, selection: [String]?
    ) throws(SelectionError) -> [(id: String, interval: TimeInterval)] {
        try container.manifest.sources(selectedBy: selection)
            .filter { selection != nil || $0.enabled }
            .map { (id: $0.id, interval: $0.refreshSeconds) }
    }

    /// The ids watched, in manifest order.
    public var sourceIDs: [String] { state.withLock { $0.schedule.entries.map(\.id) } }

    /// Starts the first cycle (spread over a few seconds) and keeps going until `stop`.
    public func start() { wake() }

    /// `r`: every source that is not running now runs now.
    public func refreshAll() {
        state.withLock { $0.schedule.refreshAll(at: clock.now) }
        wake()
    }

    /// One source now (it is not run twice at once: a source running now keeps its run). Returns false for an
    /// id this watch does not run.
    public func refresh(_ id: String) -> Bool {
        let known = state.withLock { $0.schedule.refresh(id, at: clock.now) }
        if known { wake() }
        return known
    }

    /// SIGHUP: watch `container`'s manifest from now on (sources kept keep their schedule).
    public func reload(_ container: AppDIContainer) throws(SelectionError) {
        let sources = try Self.watched(in: container, selection: options.selection)
        state.withLock { state in
            state.container = container
            state.schedule.replaceSources(with: sources, now: clock.now, random: &state.random)
        }
        newness.keep(only: sources.map(\.id))
        wake()
    }

    /// Stops: no new run starts, the runs in flight are cancelled (their sources report `timeout` and what
    /// they started is stopped), and `completion` runs once they all ended.
    public func stop(completion: @escaping @Sendable () -> Void) {
        let done = state.withLock { state -> Bool in
            state.isStopping = true
            state.timerGeneration += 1
            guard state.runsInFlight > 0 else { return true }
            state.stopped.append(completion)
            return false
        }
        cancellation.cancel()
        if done { completion() }
    }

    // MARK: - The loop

    /// Runs what is due, then sleeps until the next source falls due.
    private func wake() {
        let now = clock.now
        let plan: (container: AppDIContainer, first: [String], later: [String], wake: Date?, generation: Int)? =
            state.withLock { state in
                guard !state.isStopping else { return nil }
                let due = state.schedule.takeDue(at: now)
                let first = due.filter { !state.cycled.contains($0) }
                let later = due.filter { state.cycled.contains($0) }
                state.runsInFlight += self.runs(first: first, later: later)
                state.timerGeneration += 1
                return (state.container, first, later, state.schedule.nextWake, state.timerGeneration)
            }
        guard let plan else { return }
        switch options.items {
        case .all:
            let due = plan.first + plan.later
            if !due.isEmpty { run(due, in: plan.container, newOnly: false) }
        case .new(let fromStart):
            if !plan.first.isEmpty { run(plan.first, in: plan.container, newOnly: fromStart) }
            if !plan.later.isEmpty { run(plan.later, in: plan.container, newOnly: true) }
        }
        if let next = plan.wake { arm(at: next, generation: plan.generation) }
    }

    /// How many runs `wake` starts for these due sources.
    private func runs(first: [String], later: [String]) -> Int {
        switch options.items {
        case .all: (first.isEmpty && later.isEmpty) ? 0 : 1
        case .new: (first.isEmpty ? 0 : 1) + (later.isEmpty ? 0 : 1)
        }
    }

    private func arm(at date: Date, generation: Int) {
        clock.wake(after: max(0, date.timeIntervalSince(clock.now))) { [weak self] in
            guard let self else { return }
            let current = state.withLock { !$0.isStopping && $0.timerGeneration == generation }
            if current { wake() }
        }
    }

    private func run(_ ids: [String], in container: AppDIContainer, newOnly: Bool) {
        observer?.watchDidStart(ids)
        var request = RunRequest(selection: ids, newOnly: newOnly)
        request.markNew = options.items == .all
        do throws(SelectionError) {
            try container.engine.run(request, cancellation: cancellation, output: options.output()) { [self] outcome in
                finished(outcome)
            }
        } catch {
            // The ids came from this container's manifest; a reload between planning and now cannot remove
            // them from it. Reported as failed cycles all the same, so the schedule moves on.
            let reports = ids.map { id in
                SourceReport(
                    descriptor: SourceDescriptor(id: id, provider: "?", timeoutSeconds: 0, concurrency: 1), status: .error,
                    error: SourceError(.configuration, error.description))
            }
            finished(RunOutcome(report: AggregateReport(generatedAt: clock.now, sources: reports), notes: [], warnings: []))
        }
    }

    private func finished(_ outcome: RunOutcome) {
        let now = clock.now
        let (nexts, stopped, wakeAt, generation, stopping, container) = state.withLock { state in
            var nexts: [Date?] = []
            for report in outcome.report.sources {
                state.schedule.finished(report.id, report: report, at: now, random: &state.random)
                state.cycled.insert(report.id)
                nexts.append(state.schedule.entry(report.id)?.next)
            }
            state.runsInFlight -= 1
            var stopped: [@Sendable () -> Void] = []
            if state.isStopping, state.runsInFlight == 0 { swap(&stopped, &state.stopped) }
            state.timerGeneration += 1
            return (nexts, stopped, state.isStopping ? nil : state.schedule.nextWake, state.timerGeneration, state.isStopping,
                    state.container)
        }
        if !stopping { upkeep.afterRun(in: container, now: Date()) }
        // A source the watch's own stop cut short (it reports `timeout`) is no news of the source.
        for (report, next) in zip(outcome.report.sources, nexts) where !(stopping && report.status == .timeout) {
            let news = options.items != .all ? NewItems.none : newness.news(
                of: report, history: outcome.newItemIDs[report.id], firstRun: outcome.firstRunIDs.contains(report.id))
            observer?.watch(didFinish: report, next: next, news: news)
        }
        if !outcome.sinks.isEmpty { observer?.watch(didDeliver: outcome.sinks) }
        for completion in stopped { completion() }
        if let wakeAt { arm(at: wakeAt, generation: generation) }
    }
}

/// The watch's clock before every timer took one: `TimerClock`.
@available(*, deprecated, renamed: "TimerClock")
public typealias WatchClock = TimerClock

/// The system's clock before every timer took one: `SystemClock`.
@available(*, deprecated, renamed: "SystemClock")
public typealias SystemWatchClock = SystemClock
