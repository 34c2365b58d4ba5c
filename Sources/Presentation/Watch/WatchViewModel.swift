import Domain
import Foundation
import Synchronization

/// What `aggregate watch` shows of one source.
public struct WatchSourceState: Sendable, Hashable {
    public var id: String
    public var provider: String?
    /// Nil until its first cycle finished.
    public var report: SourceReport?
    public var isRunning = false
    /// When its last cycle finished and when the next one starts.
    public var finishedAt: Date?
    /// When a cycle last ended `ok` (nil: never in this process).
    public var lastSuccessAt: Date?
    public var next: Date?
    /// Ids of its latest items that were not in its first cycle (marked as new): a subset of the latest result,
    /// so it never outgrows it however long the watch runs.
    public var newItemIDs: Set<String> = []

    public init(id: String) {
        self.id = id
    }
}

/// The watch's observable state: fed by the watch (as a `WatchObserver` would be, from any thread), read by
/// the full-screen view. Each source's items of its first cycle are the baseline; an item of a later result that is
/// not in it is new, and marked as long as it is in the source's result.
///
/// Memory is bounded by the sources' results, whatever the watch's length: per source its latest report, its
/// first cycle's ids and the new ids of its latest result; a source a reload removed is forgotten.
public final class WatchViewModel: Sendable {
    private struct Store {
        var order: [String] = []
        var sources: [String: WatchSourceState] = [:]
        var baseline: [String: Set<String>] = [:]
        var version = 0
    }

    private let store = Mutex(Store())
    public let startedAt: Date

    public init(sources: [String], startedAt: Date = Date()) {
        self.startedAt = startedAt
        store.withLock { store in
            store.order = sources
            for id in sources { store.sources[id] = WatchSourceState(id: id) }
        }
    }

    /// The sources in manifest order, and a number that changes with every update (redraw when it did).
    public var snapshot: (sources: [WatchSourceState], version: Int) {
        store.withLock { store in (store.order.compactMap { store.sources[$0] }, store.version) }
    }

    public func sourcesDidStart(_ ids: [String]) {
        store.withLock { store in
            for id in ids { store.sources[id, default: WatchSourceState(id: id)].isRunning = true }
            store.version += 1
        }
    }

    public func source(didFinish report: SourceReport, at date: Date = Date(), next: Date?) {
        store.withLock { store in
            if !store.order.contains(report.id) { store.order.append(report.id) }
            var state = store.sources[report.id] ?? WatchSourceState(id: report.id)
            let ids = Set(report.items.map(\.id))
            if let baseline = store.baseline[report.id] {
                state.newItemIDs = ids.subtracting(baseline)
            } else {
                store.baseline[report.id] = ids
            }
            state.provider = report.descriptor.provider
            state.report = report
            state.isRunning = false
            state.finishedAt = date
            if report.status == .ok { state.lastSuccessAt = date }
            state.next = next
            store.sources[report.id] = state
            store.version += 1
        }
    }

    /// After a manifest reload: these sources, in this order (kept ones keep their state, removed ones are
    /// forgotten).
    public func replaceSources(_ ids: [String]) {
        store.withLock { store in
            let kept = Set(ids)
            store.sources = store.sources.filter { kept.contains($0.key) }
            store.baseline = store.baseline.filter { kept.contains($0.key) }
            store.order = ids
            for id in ids where store.sources[id] == nil { store.sources[id] = WatchSourceState(id: id) }
            store.version += 1
        }
    }
}
