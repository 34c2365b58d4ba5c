import Domain
import Foundation
import Synchronization

/// The run's view model: the aggregate use case feeds it (input: `AggregateObserver`) from any thread
/// as sources start, deliver and finish; it keeps an `AggregateViewState` (output) that the live
/// progress and the final renderers read.
///
/// Events may arrive in any order and from several threads: a source's finish before the run's start,
/// a late item count after its finish. Rows stay in manifest order, counts never go backwards, and a
/// finished source stays finished. A `aggregateDidStart` after a finished run starts a new run.
public final class AggregateViewModel: Sendable {
    /// Receives each new state; see `observe(_:)` for when and where it runs.
    public typealias Handler = @Sendable (AggregateViewState) -> Void

    private struct Store {
        var started = false
        var startedAt: Date?
        var order: [String] = []
        var rows: [String: SourceRow] = [:]
        var reports: [String: SourceReport] = [:]
        /// Bumped on every change, so that deliveries racing each other never go back in time.
        var version = 0

        var state: AggregateViewState {
            let rows = order.compactMap { self.rows[$0] }
            return AggregateViewState(rows: rows, isFinished: started && rows.allSatisfy(\.isFinished))
        }
    }

    private struct Delivery {
        var handlers: [Handler] = []
        /// The newest state handed to delivery, and its version.
        var version = 0
        var state = AggregateViewState()
        /// A state not yet given to every handler.
        var isDirty = false
        /// Handlers added since the last call, still owed their first state.
        var newcomers: [Handler] = []
        /// Whether a thread is calling handlers now: the one that delivers, until nothing is owed.
        var isDelivering = false
    }

    private let store = Mutex(Store())
    /// The handlers and the newest state for them. Never held while a handler runs, nor while taking `store`.
    private let delivery = Mutex(Delivery())

    public init() {}

    /// The current state.
    public var state: AggregateViewState {
        store.withLock { $0.state }
    }

    /// The whole run once every source finished (sources in manifest order), for the final renderers;
    /// `nil` while any is loading. `generatedAt` is when the view model saw the run start.
    public var report: AggregateReport? {
        store.withLock { store in
            guard store.state.isFinished else { return nil }
            let sources = store.order.compactMap { store.reports[$0] }
            return AggregateReport(generatedAt: store.startedAt ?? Date(), sources: sources)
        }
    }

    /// Calls `handler` with the current state, then after every change. Calls are serialised (never two at
    /// once) and never go back to an older state, but come from whichever thread made the change — this
    /// thread, at once, unless another one is delivering: then from that one, right after. A handler must be
    /// quick and may read `state`; no lock is held while it runs.
    public func observe(_ handler: @escaping Handler) {
        let (state, version) = store.withLock { ($0.state, $0.version) }
        deliver(state, version: version, adding: handler)
    }

    private func update(_ change: (inout Store) -> Bool) {
        let changed: (AggregateViewState, Int)? = store.withLock { store in
            guard change(&store) else { return nil }
            store.version += 1
            return (store.state, store.version)
        }
        guard let (state, version) = changed else { return }
        deliver(state, version: version)
    }

    /// Hands `state` to delivery and, unless another thread is delivering, calls the handlers until nothing
    /// is owed; a state older than one already handed over is dropped.
    private func deliver(_ state: AggregateViewState, version: Int, adding handler: Handler? = nil) {
        let delivers = delivery.withLock { delivery in
            if let handler {
                delivery.handlers.append(handler)
                delivery.newcomers.append(handler)
            }
            if version > delivery.version {
                (delivery.version, delivery.state, delivery.isDirty) = (version, state, true)
            }
            guard !delivery.isDelivering else { return false }
            delivery.isDelivering = true
            return true
        }
        guard delivers else { return }
        while true {
            let owed: (handlers: [Handler], state: AggregateViewState)? = delivery.withLock { delivery in
                defer { delivery.newcomers = [] }
                if delivery.isDirty {
                    delivery.isDirty = false
                    return (delivery.handlers, delivery.state)
                }
                if !delivery.newcomers.isEmpty { return (delivery.newcomers, delivery.state) }
                delivery.isDelivering = false
                return nil
            }
            guard let owed else { return }
            for handler in owed.handlers { handler(owed.state) }
        }
    }
}

extension AggregateViewModel: AggregateObserver {
    public func aggregateDidStart(_ sources: [SourceDescriptor]) {
        update { store in
            if store.started { store = Store(version: store.version) }
            let early = store.order  // sources heard of before the start, in arrival order
            store.started = true
            store.startedAt = Date()
            store.order = sources.map(\.id) + early.filter { id in !sources.contains { $0.id == id } }
            for source in sources {
                if var row = store.rows[source.id] {
                    row.provider = source.provider
                    store.rows[source.id] = row
                } else {
                    store.rows[source.id] = SourceRow(id: source.id, provider: source.provider)
                }
            }
            return true
        }
    }

    public func source(_ id: String, didDeliver itemCount: Int) {
        update { store in
            var row = store.rows[id] ?? SourceRow(id: id, provider: "")
            guard !row.isFinished, itemCount > row.itemCount else { return false }
            if store.rows[id] == nil { store.order.append(id) }
            row.itemCount = itemCount
            store.rows[id] = row
            return true
        }
    }

    public func sourceDidFinish(_ report: SourceReport) {
        update { store in
            if let row = store.rows[report.id], row.isFinished { return false }
            if store.rows[report.id] == nil { store.order.append(report.id) }
            store.rows[report.id] = SourceRow(report: report)
            store.reports[report.id] = report
            return true
        }
    }
}
