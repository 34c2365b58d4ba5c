import Domain
import Foundation
import GRDB

/// The item history (`seen_item`: the source's key in `history_source`, item id, first seen time) behind `--new`,
/// the digests of large batches recorded whole (`SeenBatches`), and the archive of the items themselves
/// (`ArchiveWriter`), written in the same transaction.
public struct SQLiteSeenItemsRepository: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }
}

extension SQLiteSeenItemsRepository: SeenItemsRepository {
    public func recordSeen(by source: SourceIdentity, items: [Item], at date: Date) throws(SourceError) -> SeenItems {
        try database.write { db in
            try ArchiveWriter.archive(items, of: source, at: date, in: db)
            let known = try HistorySources.key(of: source, in: db)
            let hasHistory = try known.flatMap {
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM seen_item WHERE source_key = ?)", arguments: [$0])
            } ?? false
            let key = try known ?? HistorySources.insertKey(of: source, in: db)
            // One statement for the whole batch: the ids go in as a JSON array, and RETURNING names the rows
            // actually inserted (an id seen before is ignored, so not returned).
            let unseen = try String.fetchSet(
                db,
                sql: """
                    INSERT OR IGNORE INTO seen_item (source_key, item_id, first_seen_at)
                    SELECT ?, value, ? FROM json_each(?) RETURNING item_id
                    """,
                arguments: [key, date.timeIntervalSince1970, Self.jsonArray(items.map(\.id))])
            return SeenItems(unseen: unseen, isFirstRun: !hasHistory)
        }
    }

    public func markSeen(_ batches: [SeenBatch], at date: Date) throws(SourceError) {
        try database.write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO seen_item (source_key, item_id, first_seen_at)
                SELECT ?, value, ? FROM json_each(?)
                """)
            for batch in batches where !batch.items.isEmpty {
                try ArchiveWriter.archive(batch.items, of: batch.source, at: date, in: db)
                let key = try HistorySources.makeKey(of: batch.source, in: db)
                let itemIDs = batch.itemIDs
                // A large batch recorded whole before (the same items read again) is known by its digest.
                let digest = itemIDs.count >= SeenBatches.minimumCount ? SeenBatches.digest(of: itemIDs) : nil
                if let digest, try SeenBatches.isRecorded(digest, key: key, in: db) { continue }
                // In key order: each id lands next to the last one in the table's B-tree instead of anywhere.
                try insert.execute(arguments: [key, date.timeIntervalSince1970, Self.jsonArray(itemIDs.sorted())])
                if let digest { try SeenBatches.record(digest, key: key, in: db) }
            }
        }
    }

    /// The ids as one JSON array: a batch goes in as one statement (`json_each`), not one per id.
    private static func jsonArray(_ itemIDs: [String]) -> String {
        var ids = JSONWriter(capacity: itemIDs.count * 16)
        ids.beginArray()
        for id in itemIDs { ids.string(id) }
        ids.endArray()
        return ids.text
    }
}
