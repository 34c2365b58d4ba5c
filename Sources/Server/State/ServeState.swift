import App
import Domain
import Foundation
import Logging
import Presentation
import Synchronization

/// The latest state of every source, as the watch reports it: the watch's own view model (what the terminal
/// view draws) plus what only the server needs: the event log and the metrics. Which items are new it is told
/// (the engine's `NewItems`, from the watch or the fleet's workers). Items are not kept: each report is held
/// with its items counted (`streamedItemCount`) and their ids listed, and pages read the items from the store's
/// archive (`ServedArchive`), where the run wrote them before telling this state.
final class ServeState: WatchObserver {
    let view: WatchViewModel
    let events: EventLog
    let metrics: ServeMetrics
    let logger: Logger
    /// Different for each process: a validator (ETag) from an earlier run of the server never matches.
    let instance = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    /// What the dashboard shows beyond the view model: each source's last refreshes, the items new this hour.
    private let health: Mutex<Health>

    private struct Health {
        var histories: [String: RefreshHistory] = [:]
        var newItems = HourlyCount()
        /// Each source's latest items, by id, in its order.
        var latestItemIDs: [String: PackedItemIDs] = [:]
        /// What `ServeOutput` saw of a source whose report is on its way (the report keeps new items only): every
        /// item's id, and how many were new (nil: the history could not tell).
        var ran: [String: (itemIDs: PackedItemIDs, newItems: Int?)] = [:]
        /// The sources served and those that finished a cycle (`/readyz`; the log says when that becomes all).
        var readiness: Readiness
    }

    /// Which of the served sources finished a cycle: counted as they do, so a 10,000-source fleet is not scanned
    /// at every source's end.
    private struct Readiness {
        var sources: Set<String>
        var finished: Set<String> = []

        /// Every source finished a cycle.
        var isReady: Bool { finished.count == sources.count }

        /// `id` finished a cycle; true when that made every source finished.
        mutating func finished(_ id: String) -> Bool {
            guard sources.contains(id), !isReady else { return false }
            finished.insert(id)
            return isReady
        }

        /// After a reload: these sources, and which of them finished already.
        mutating func replace(_ ids: [String]) {
            sources = Set(ids)
            finished.formIntersection(sources)
        }
    }

    init(sources: [String], events: EventLog, metrics: ServeMetrics, logger: Logger = Logger(label: "aggregate")) {
        self.view = WatchViewModel(sources: sources)
        self.events = events
        self.metrics = metrics
        self.logger = logger
        self.health = Mutex(Health(readiness: Readiness(sources: Set(sources))))
    }

    struct Snapshot: Sendable {
        /// Each source's state; its report holds no items (`ServedArchive.latest` reads them back).
        var sources: [WatchSourceState]
        var version: Int
        /// Each source's latest items, by id, in its order.
        var latestItemIDs: [String: PackedItemIDs]
        /// Every source as archived items are shown under it: its latest report, or, while it loads its first
        /// cycle, a report of its id and provider alone (a restarted server shows the archive at once).
        var itemSources: [SourceReport] {
            sources.map { state in
                state.report ?? SourceReport(
                    descriptor: SourceDescriptor(id: state.id, provider: state.provider ?? "", timeoutSeconds: 0, concurrency: 1),
                    status: .skipped, message: "loading")
            }
        }

        /// The `--format json` contract of what is known, without items: sources still loading their first
        /// cycle are left out; `generatedAt` is when the newest of them finished (the same bytes for the same state).
        var report: AggregateReport {
            let finished = sources.filter { $0.report != nil }
            return AggregateReport(
                generatedAt: finished.compactMap(\.finishedAt).max() ?? Date(timeIntervalSince1970: 0),
                sources: finished.compactMap(\.report))
        }
    }

    /// Every source finished a cycle (`/readyz`).
    var isReady: Bool { health.withLock { $0.readiness.isReady } }

    /// Each source's last refreshes.
    var histories: [String: RefreshHistory] { health.withLock { $0.histories } }

    func history(_ id: String) -> RefreshHistory? { health.withLock { $0.histories[id] } }

    /// The dashboard's summary of `sources` now.
    func summary(_ sources: [WatchSourceState], at date: Date = Date()) -> DashboardSummary {
        DashboardSummary(sources, newLastHour: health.withLock { $0.newItems.total(at: date) })
    }

    var snapshot: Snapshot {
        // The ids first: a source finishing meanwhile shows its new ids with its old state at worst, and the
        // version it bumps renders again.
        let ids = health.withLock { $0.latestItemIDs }
        let (sources, version) = view.snapshot
        return Snapshot(sources: sources, version: version, latestItemIDs: ids)
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
        let ran = health.withLock { $0.ran.removeValue(forKey: report.id) }
        finish(
            report, itemIDs: ran?.itemIDs ?? PackedItemIDs(report.items.map(\.id)), newCount: ran?.newItems, next: next,
            news: news, at: Date())
    }

    /// Told by `ServeOutput` before `sourceID`'s report comes: the ids of every item of its run, in order, and how
    /// many were new to the history (nil: it could not tell). Packed at once: a run's reports come when all its
    /// sources are done, and a first cycle over 10,000 sources would otherwise hold every item's id as a string.
    func ran(_ sourceID: String, itemIDs: [String], newItems: Int?) {
        let packed = PackedItemIDs(itemIDs)
        health.withLock { $0.ran[sourceID] = (packed, newItems) }
    }

    /// A source's cycle finished at `now` (this server's run, or a fleet worker's stored report, which holds its
    /// new items only); `itemIDs`: every item's id, in order.
    /// `newCount`: how many items were new, where the report holds fewer of them than that (`ServeOutput`).
    private func finish(
        _ report: SourceReport, itemIDs: PackedItemIDs, newCount: Int? = nil, next: Date?, news: NewItems, at now: Date
    ) {
        let new = news.ids.isEmpty ? [] : report.items.filter { news.ids.contains($0.id) }
        let newTotal = newCount ?? new.count
        let becameReady = health.withLock { health in
            health.histories[report.id, default: RefreshHistory()].append(duration: report.duration, status: report.status)
            health.newItems.add(newTotal, at: now)
            health.latestItemIDs[report.id] = itemIDs
            return health.readiness.finished(report.id) ? health.readiness.sources.count : nil
        }
        // After the history: a page rendered for the version this bumps shows this refresh.
        view.source(didFinish: Self.counted(report), at: now, next: next, newItemIDs: news.marked)
        metrics.record(report, newItems: newTotal, at: now)
        if let state = source(report.id) { events.publish("source", data: ServeJSON.source(state)) }
        for item in new { events.publish("item", data: ServeJSON.item(item, source: report.id)) }
        if let count = becameReady {
            logger.info("serve: ready: every source finished a cycle (\(count) source\(count == 1 ? "" : "s")); /readyz answers 200")
        }
    }

    /// After a manifest reload (SIGHUP): these sources, in this order; what was kept of removed ones goes.
    func reloaded(sources: [String]) {
        view.replaceSources(sources)
        let kept = Set(sources)
        health.withLock { health in
            health.histories = health.histories.filter { kept.contains($0.key) }
            health.latestItemIDs = health.latestItemIDs.filter { kept.contains($0.key) }
            health.ran = health.ran.filter { kept.contains($0.key) }
            health.readiness.replace(sources)
        }
    }

    /// `report` as the state keeps it: its items counted, not held.
    static func counted(_ report: SourceReport) -> SourceReport {
        var report = report
        report.streamedItemCount += report.items.count
        report.items = []
        return report
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
        finish(report.report, itemIDs: PackedItemIDs(report.itemIDs), next: report.next, news: news, at: report.finishedAt)
    }

    func fleet(problem: String) {
        logger.warning("fleet: \(problem)")
    }
}
