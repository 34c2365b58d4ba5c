import Domain
import Foundation
import GRDB

/// The item history (`seen_item`: source id, item id, first seen time) behind `--new`.
public struct SQLiteSeenItemsRepository: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }
}

extension SQLiteSeenItemsRepository: SeenItemsRepository {
    public func recordSeen(by source: SourceIdentity, itemIDs: [String], at date: Date) throws(SourceError) -> SeenItems {
        try database.write { db in
            try AppDatabase.adoptLegacy("seen_item", for: source, in: db)
            let hasHistory = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM seen_item WHERE source_id = ? AND fingerprint = ?)",
                arguments: [source.id, source.fingerprint]) ?? false
            // One statement for the whole batch: the ids go in as a JSON array, and RETURNING names the rows
            // actually inserted (an id seen before is ignored, so not returned).
            let unseen = try String.fetchSet(
                db,
                sql: """
                    INSERT OR IGNORE INTO seen_item (source_id, fingerprint, item_id, first_seen_at)
                    SELECT ?, ?, value, ? FROM json_each(?) RETURNING item_id
                    """,
                arguments: [source.id, source.fingerprint, date.timeIntervalSince1970, Self.jsonArray(itemIDs)])
            return SeenItems(unseen: unseen, isFirstRun: !hasHistory)
        }
    }

    public func markSeen(by source: SourceIdentity, itemIDs: [String], at date: Date) throws(SourceError) {
        try database.write { db in
            try AppDatabase.adoptLegacy("seen_item", for: source, in: db)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO seen_item (source_id, fingerprint, item_id, first_seen_at)
                    SELECT ?, ?, value, ? FROM json_each(?)
                    """,
                arguments: [source.id, source.fingerprint, date.timeIntervalSince1970, Self.jsonArray(itemIDs)])
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
