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
            var unseen = Set<String>()
            let statement = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO seen_item (source_id, item_id, first_seen_at) VALUES (?, ?, ?)")
            for id in itemIDs {
                try statement.execute(arguments: [sourceID, id, date.timeIntervalSince1970])
                if db.changesCount > 0 { unseen.insert(id) }
            }
            return SeenItems(unseen: unseen, isFirstRun: !hasHistory)
        }
    }
}
