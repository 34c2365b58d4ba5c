import App
import Domain
import Synchronization

/// serve's run output: a source's items are held only until its report is finished. Then their ids go to the
/// state (`ServeState`, which pages read the items back by), and the report keeps only the items the item
/// history never saw, which `item` events announce (every item when the history could not tell), the others
/// counted. So a first cycle over 10,000 sources never holds every source's items at once.
///
/// A run keeps at most `announced` new items in its reports, the event ring's size (`EventLog`: a client can
/// never read more of one burst): the new items past it are counted as new, not announced, and the run's end
/// logs how many.
final class ServeOutput: RunOutput {
    private let state: ServeState
    private let announced: Int
    private struct Pending {
        /// The items of the source being written (sources come one after another).
        var items: [Item] = []
        /// New items kept in this run's reports so far, and those past `announced`.
        var kept = 0
        var unannounced = 0
    }

    private let pending = Mutex(Pending())

    init(state: ServeState, announced: Int) {
        self.state = state
        self.announced = announced
    }

    func write(_ items: [Item], of source: SourceDescriptor, more: Bool) {
        pending.withLock { $0.items.append(contentsOf: items) }
    }

    func finish(_ source: SourceReport) -> SourceReport {
        finish(source, newItemIDs: nil)
    }

    func finish(_ source: SourceReport, newItemIDs: Set<String>?) -> SourceReport {
        let (items, room) = pending.withLock { pending in
            defer { pending.items = [] }
            return (pending.items, max(0, announced - pending.kept))
        }
        let new = newItemIDs.map { ids in items.filter { ids.contains($0.id) } } ?? items
        let kept = Array(new.prefix(room))
        pending.withLock { pending in
            pending.kept += kept.count
            pending.unannounced += new.count - kept.count
        }
        state.ran(source.id, itemIDs: items.map(\.id), newItems: newItemIDs == nil ? nil : new.count)
        var report = source
        report.items = kept
        report.streamedItemCount = items.count - kept.count
        return report
    }

    func finish(run report: AggregateReport) -> AggregateReport {
        let unannounced = pending.withLock { $0.unannounced }
        if unannounced > 0 {
            state.logger.notice("""
                serve: \(unannounced) new items of this cycle are counted but not announced as item events: one \
                cycle announces at most \(announced), the size of the event ring
                """)
        }
        return report
    }
}
