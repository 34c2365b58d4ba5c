import Domain
import Foundation
import Synchronization

/// Told what the fleet's workers stored, as a follower reads it.
public protocol FleetFollowerObserver: Sendable {
    /// These sources are followed, in manifest order (at the start and after a reload).
    func fleetFollows(_ ids: [String])
    /// A worker stored a newer report of a followed source; `news`: which of its items are new (the worker's
    /// item history, `FleetReport.newItemIDs`, else this follower's memory: `ItemNewness`).
    func fleet(stored report: FleetReport, news: NewItems)
    /// The store could not be read or written (the follower keeps trying).
    func fleet(problem: String)
}

/// `aggregate serve --no-worker`: the state of a fleet's sources as its workers store it, read from the shared
/// store rather than run. Any number of servers follow one fleet and show the same reports; none fetches.
///
/// One thread of its own polls the store every `pollSeconds`: which reports were stored lately (their
/// versions), then only the changed ones. A refresh asked of it makes the source due for the whole fleet.
public final class FleetFollower: Sendable {
    public struct Options: Sendable {
        public var selection: [String]?
        /// How often the store is asked what changed.
        public var pollSeconds: Double
        /// How far back each poll looks (longer than any worker's store write takes to commit); a follower that
        /// could not read the store for longer reads every report again.
        public var windowSeconds: Double

        public init(selection: [String]? = nil, pollSeconds: Double = 1, windowSeconds: Double = 60) {
            self.selection = selection
            self.pollSeconds = pollSeconds
            self.windowSeconds = windowSeconds
        }
    }

    private struct State {
        var container: AppDIContainer
        var ids: [String]
        /// The version of each followed source's report shown.
        var shown: [String: Int64] = [:]
        /// Refreshes asked for, made due by the loop (the store blocks; a request handler must not).
        var refreshes: [String] = []
        /// The sources changed: read every report again.
        var readAll = true
        var stopping = false
        var stopped: [@Sendable () -> Void] = []
        var running = false
    }

    private let options: Options
    private let observer: any FleetFollowerObserver
    private let state: Mutex<State>
    private let newness = ItemNewness()
    private let wake = DispatchSemaphore(value: 0)
    /// What the polls are timed on.
    private let clock: any TimerClock

    /// - Throws: a selection that does not fit the manifest.
    public init(
        container: AppDIContainer, options: Options, observer: any FleetFollowerObserver,
        clock: any TimerClock = SystemClock()
    ) throws(SelectionError) {
        let ids = try Watcher.watched(in: container, selection: options.selection).map(\.id)
        self.clock = clock
        self.options = options
        self.observer = observer
        state = Mutex(State(container: container, ids: ids))
    }

    /// The ids followed, in manifest order.
    public var sourceIDs: [String] { state.withLock { $0.ids } }

    /// Starts reading the store on a thread of its own, until `stop`.
    public func start() {
        let ids = state.withLock { state -> [String]? in
            guard !state.running, !state.stopping else { return nil }
            state.running = true
            return state.ids
        }
        guard let ids else { return }
        observer.fleetFollows(ids)
        let loop = Thread { [self] in followLoop() }
        loop.name = "aggregate.follower"
        loop.start()
    }

    /// Makes `id` due for the fleet now. Returns false for an id not followed.
    public func refresh(_ id: String) -> Bool {
        let known = state.withLock { state -> Bool in
            guard state.ids.contains(id) else { return false }
            state.refreshes.append(id)
            return true
        }
        if known { wake.signal() }
        return known
    }

    /// SIGHUP: follow `container`'s manifest from now on.
    public func reload(_ container: AppDIContainer) throws(SelectionError) {
        let ids = try Watcher.watched(in: container, selection: options.selection).map(\.id)
        state.withLock { state in
            state.container = container
            state.ids = ids
            let followed = Set(ids)
            state.shown = state.shown.filter { followed.contains($0.key) }
            state.readAll = true
        }
        newness.keep(only: ids)
        observer.fleetFollows(ids)
        wake.signal()
    }

    /// Stops reading; `completion` runs once the loop ended (at once if it never started).
    public func stop(completion: @escaping @Sendable () -> Void) {
        let done = state.withLock { state -> Bool in
            state.stopping = true
            guard state.running else { return true }
            state.stopped.append(completion)
            return false
        }
        wake.signal()
        if done { completion() }
    }

    // MARK: - The loop (its own thread: every store call blocks)

    private func followLoop() {
        var lastRead: Date?
        var problem: String?
        while true {
            let (container, refreshes, readAll, stopping) = state.withLock { state in
                defer { (state.refreshes, state.readAll) = ([], false) }
                return (state.container, state.refreshes, state.readAll, state.stopping)
            }
            if stopping { break }
            do throws(SourceError) {
                let (opened, warnings) = container.store.open()
                guard let schedule = opened?.fleet, let reports = opened?.fleetReports else {
                    throw SourceError(.io, warnings.first ?? "the store cannot be used")
                }
                for id in refreshes { _ = try schedule.makeDue(id) }
                let stale = readAll || lastRead.map { clock.now.timeIntervalSince($0) > options.windowSeconds / 2 } ?? true
                let started = clock.now
                try read(reports, storedWithin: stale ? nil : options.windowSeconds)
                lastRead = started
                problem = nil
            } catch {
                if problem != error.message { observer.fleet(problem: error.message) }
                problem = error.message
                // A refresh asked while the store was away is asked again with the next read.
                state.withLock { $0.refreshes.insert(contentsOf: refreshes, at: 0) }
            }
            clock.wait(for: wake, atMost: options.pollSeconds)
        }
        let completions = state.withLock { state in
            defer { (state.stopped, state.running) = ([], false) }
            return state.stopped
        }
        for completion in completions { completion() }
    }

    /// Shows every followed source's report stored since the last read (`seconds` back; all when nil) that is
    /// newer than the one shown, oldest first.
    private func read(_ reports: any FleetReportRepository, storedWithin seconds: Double?) throws(SourceError) {
        let versions = try reports.versions(storedWithinSeconds: seconds)
        let changed = state.withLock { state in
            state.ids.filter { id in versions[id].map { $0 > state.shown[id] ?? 0 } ?? false }
        }
        guard !changed.isEmpty else { return }
        let newer = try reports.reports(of: changed).sorted { ($0.finishedAt, $0.version) < ($1.finishedAt, $1.version) }
        // One lock for the lot (a first read may bring 20,000); still followed and still newer, told after it.
        let shown = state.withLock { state -> [FleetReport] in
            let followed = Set(state.ids)
            return newer.filter { report in
                guard followed.contains(report.report.id), report.version > state.shown[report.report.id] ?? 0 else {
                    return false
                }
                state.shown[report.report.id] = report.version
                return true
            }
        }
        // A stored report does not say whether it was its source's first run: the first one read here is.
        for report in shown {
            observer.fleet(stored: report, news: newness.news(of: report.report, history: report.newItemIDs, firstRun: true))
        }
    }
}
