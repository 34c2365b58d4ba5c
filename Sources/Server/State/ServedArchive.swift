import App
import Domain
import Foundation
import Synchronization

/// The store's item archive, where serve reads every item it shows (`/api/items`, `/api/report`, the feeds, the
/// dashboard's item pages): the state in memory keeps sources, counts and each source's latest item ids only,
/// so memory grows with sources, not items, and a restarted server shows what the archive holds at once. Set
/// from each container the server runs (its start and every reload); every read runs off the event loop.
final class ServedArchive: Sendable {
    private let opener = Mutex<@Sendable () -> (any ItemArchiveRepository)?>({ nil })

    func load(_ container: AppDIContainer) {
        opener.withLock { $0 = { container.archive() } }
    }

    /// Runs `work` on the archive on a thread of the global pool; a store that cannot be opened or read is a 503
    /// with the reason (never a 500).
    func read<T: Sendable>(
        _ work: @escaping @Sendable (any ItemArchiveRepository) throws(SourceError) -> T
    ) async throws(RequestProblem) -> T {
        try await ArchiveCall.offLoop(
            opener.withLock { $0 }, missing: "the store cannot be opened, so no item can be read (the server's log says why)", work
        ).mapError { RequestProblem(.serviceUnavailable, $0.message) }.get()
    }

    /// `sources` with their latest items read back from the archive (the first `limit` of each, where given; the
    /// rest stay counted as not kept here): what the sources' last cycles delivered, in their order.
    func latest(
        _ sources: [SourceReport], ids: [String: PackedItemIDs], limit: Int? = nil
    ) async throws(RequestProblem) -> [SourceReport] {
        let wanted = sources.map { source in (source.id, Array((ids[source.id]?.ids ?? []).prefix(limit ?? .max))) }
        let found = try await read { archive throws(SourceError) in
            var found: [[Item]] = []
            for (id, itemIDs) in wanted { found.append(try archive.items(of: id, itemIDs: itemIDs).map(\.item)) }
            return found
        }
        return zip(sources, found).map { source, items in
            var source = source
            source.streamedItemCount = max(0, source.itemCount - items.count)
            source.items = items
            // Every latest item asked for, or some left the archive: then the count is what was found.
            if limit == nil { source.streamedItemCount = 0 }
            return source
        }
    }
}
