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
    /// Ids of its latest items that are new in its latest cycle (marked as new), as the engine said
    /// (`NewItems.marked`): a subset of the latest result, so it never outgrows it however long the watch runs.
    public var newItemIDs: Set<String> = []

    public init(id: String) {
        self.id = id
    }
}

/// The watch's observable state: fed by the watch (as a `WatchObserver` would be, from any thread), read by
/// the full-screen view and serve. Which items are new it is told with each finished cycle (the engine's
/// answer); it never works it out itself.
///
/// Memory is bounded by the sources' results, whatever the watch's length: per source its latest report and
/// the new ids of it; a source a reload removed is forgotten.
public final class WatchViewModel: Sendable {
    private struct Store {
        /// The sources in manifest order: the keys of `sources`, no more, no fewer.
        var order: [String] = []
        var sources: [String: WatchSourceState] = [:]
        var version = 0

        /// `id`'s state, added at the end of the order when it is not there yet.
        mutating func update(_ id: String, _ change: (inout WatchSourceState) -> Void) {
            if sources[id] == nil { order.append(id) }
            change(&sources[id, default: WatchSourceState(id: id)])
        }
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

    /// One source's state by id (nil for a source not watched), without copying the others.
    public func source(_ id: String) -> WatchSourceState? {
        store.withLock { $0.sources[id] }
    }

    public func sourcesDidStart(_ ids: [String]) {
        store.withLock { store in
            for id in ids { store.update(id) { $0.isRunning = true } }
            store.version += 1
        }
    }

    /// A source finished a cycle; `newItemIDs`: the items of `report` to mark as new (`NewItems.marked`).
    public func source(didFinish report: SourceReport, at date: Date = Date(), next: Date?, newItemIDs: Set<String>) {
        store.withLock { store in
            store.update(report.id) { state in
                state.newItemIDs = newItemIDs
                state.provider = report.descriptor.provider
                state.report = report
                state.isRunning = false
                state.finishedAt = date
                if report.status == .ok { state.lastSuccessAt = date }
                state.next = next
            }
            store.version += 1
        }
    }

    /// After a manifest reload: these sources, in this order (kept ones keep their state, removed ones are
    /// forgotten).
    public func replaceSources(_ ids: [String]) {
        store.withLock { store in
            let kept = Set(ids)
            store.sources = store.sources.filter { kept.contains($0.key) }
            store.order = ids
            for id in ids where store.sources[id] == nil { store.sources[id] = WatchSourceState(id: id) }
            store.version += 1
        }
    }
}
