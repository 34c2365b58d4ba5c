import App
import Domain
import Foundation
import Logging
import Presentation
import Synchronization

/// The latest state of every source, as the watch reports it: the watch's own view model (what the terminal
/// view draws) plus what only the server needs: the event log and the metrics. Which items are new it is told
/// (the engine's `NewItems`, from the watch or the fleet's workers).
final class ServeState: WatchObserver {
    let view: WatchViewModel
    let events: EventLog
    let metrics: ServeMetrics
    let logger: Logger
    /// Different for each process: a validator (ETag) from an earlier run of the server never matches.
    let instance = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    /// What the dashboard shows beyond the view model: each source's last refreshes, the items new this hour.
    private let health = Mutex(Health())

    private struct Health {
        var histories: [String: RefreshHistory] = [:]
        var newItems = HourlyCount()
    }

    init(sources: [String], events: EventLog, metrics: ServeMetrics, logger: Logger = Logger(label: "aggregate")) {
        self.view = WatchViewModel(sources: sources)
        self.events = events
        self.metrics = metrics
        self.logger = logger
    }

    struct Snapshot: Sendable {
        var sources: [WatchSourceState]
        var version: Int
        /// Every source finished a cycle (`/readyz`).
        var isReady: Bool { sources.allSatisfy { $0.report != nil } }
        /// The `--format json` contract of what is known: sources still loading their first cycle are left
        /// out; `generatedAt` is when the newest of them finished (the same bytes for the same state).
        var report: AggregateReport {
            let finished = sources.filter { $0.report != nil }
            return AggregateReport(
                generatedAt: finished.compactMap(\.finishedAt).max() ?? Date(timeIntervalSince1970: 0),
                sources: finished.compactMap(\.report))
        }
    }

    /// Each source's last refreshes.
    var histories: [String: RefreshHistory] { health.withLock { $0.histories } }

    func history(_ id: String) -> RefreshHistory? { health.withLock { $0.histories[id] } }

    /// The dashboard's summary of `sources` now.
    func summary(_ sources: [WatchSourceState], at date: Date = Date()) -> DashboardSummary {
        DashboardSummary(sources, newLastHour: health.withLock { $0.newItems.total(at: date) })
    }

    var snapshot: Snapshot {
        let (sources, version) = view.snapshot
        return Snapshot(sources: sources, version: version)
    }

    func source(_ id: String) -> WatchSourceState? { view.source(id) }

    // MARK: - WatchObserver

    func watchDidStart(_ ids: [String]) {
        view.sourcesDidStart(ids)
        for state in ids.compactMap(view.source) { events.publish("source", data: ServeJSON.source(state)) }
    }

    /// An `item` event per item new to the store's item history (`NewItems.ids`): each item once, however
    /// often it leaves a source and comes back, across restarts and across servers sharing a store.
    func watch(didFinish report: SourceReport, next: Date?, news: NewItems) {
        finish(report, next: next, news: news, at: Date())
    }

    /// A source's cycle finished at `now` (this server's run, or a fleet worker's stored report).
    private func finish(_ report: SourceReport, next: Date?, news: NewItems, at now: Date) {
        let new = news.ids.isEmpty ? [] : report.items.filter { news.ids.contains($0.id) }
        health.withLock { health in
            health.histories[report.id, default: RefreshHistory()].append(duration: report.duration, status: report.status)
            health.newItems.add(new.count, at: now)
        }
        // After the history: a page rendered for the version this bumps shows this refresh.
        view.source(didFinish: report, at: now, next: next, newItemIDs: news.marked)
        metrics.record(report, newItems: new.count, at: now)
        if let state = source(report.id) { events.publish("source", data: ServeJSON.source(state)) }
        for item in new { events.publish("item", data: ServeJSON.item(item, source: report.id)) }
    }

    /// After a manifest reload (SIGHUP): these sources, in this order; what was kept of removed ones goes.
    func reloaded(sources: [String]) {
        view.replaceSources(sources)
        let kept = Set(sources)
        health.withLock { health in health.histories = health.histories.filter { kept.contains($0.key) } }
    }
}

// MARK: - FleetFollowerObserver (`serve --no-worker`)

extension ServeState: FleetFollowerObserver {
    /// The sources without a report yet show as loading until a worker stored one.
    func fleetFollows(_ ids: [String]) {
        reloaded(sources: ids)
        watchDidStart(ids.filter { source($0)?.report == nil })
    }

    /// A worker's report, at the time the worker finished it: every server following the fleet shows the same.
    func fleet(stored report: FleetReport, news: NewItems) {
        finish(report.report, next: report.next, news: news, at: report.finishedAt)
    }

    func fleet(problem: String) {
        logger.warning("fleet: \(problem)")
    }
}
