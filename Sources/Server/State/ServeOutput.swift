import App
import Domain
import Synchronization

/// serve's run output: a source's items are held only until its report is finished. Then their ids go to the
/// state (`ServeState`, which pages read the items back by), and the report keeps only the items the item
/// history never saw, which `item` events announce (every item when the history could not tell), the others
/// counted. So a first cycle over 10,000 sources never holds every source's items at once: the run's report
/// carries what is new, the archive the rest.
final class ServeOutput: RunOutput {
    private let state: ServeState
    /// The items of the source being written (sources come one after another).
    private let pending = Mutex<[Item]>([])

    init(state: ServeState) {
        self.state = state
    }

    func write(_ items: [Item], of source: SourceDescriptor, more: Bool) {
        pending.withLock { $0.append(contentsOf: items) }
    }

    func finish(_ source: SourceReport) -> SourceReport {
        finish(source, newItemIDs: nil)
    }

    func finish(_ source: SourceReport, newItemIDs: Set<String>?) -> SourceReport {
        let items = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        state.ran(source.id, itemIDs: items.map(\.id))
        let new = newItemIDs.map { ids in items.filter { ids.contains($0.id) } } ?? items
        var kept = source
        kept.items = new
        kept.streamedItemCount = items.count - new.count
        return kept
    }
}
