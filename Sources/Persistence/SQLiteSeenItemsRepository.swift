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
    public func recordSeen(sourceID: String, itemIDs: [String], at date: Date) throws(SourceError) -> SeenItems {
        try database.write { db in
            let hasHistory = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM seen_item WHERE source_id = ?)", arguments: [sourceID]) ?? false
            // One statement for the whole batch: the ids go in as a JSON array, and RETURNING names the rows
            // actually inserted (an id seen before is ignored, so not returned).
            var ids = JSONWriter(capacity: itemIDs.count * 16)
            ids.value(.array(itemIDs.map(JSONValue.string)))
            let unseen = try String.fetchSet(
                db,
                sql: """
                    INSERT OR IGNORE INTO seen_item (source_id, item_id, first_seen_at)
                    SELECT ?, value, ? FROM json_each(?) RETURNING item_id
                    """,
                arguments: [sourceID, date.timeIntervalSince1970, ids.text])
            return SeenItems(unseen: unseen, isFirstRun: !hasHistory)
        }
    }
}
