import Domain
import Foundation
import GRDB
import StoreSupport

/// What `aggregate cache stats|clear` and `aggregate history clear` do on the SQLite store.
public struct SQLiteStoreMaintenance: StoreMaintaining {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Per source (sorted by id), or only `sourceID`'s.
    public func stats(sourceID: String? = nil, now: Date = Date()) throws(SourceError) -> [StoreMaintenance.SourceStats] {
        try database.read { db in
            var stats: [String: StoreMaintenance.SourceStats] = [:]
            func entry(_ id: String) -> StoreMaintenance.SourceStats {
                stats[id] ?? StoreMaintenance.SourceStats(sourceID: id)
            }
            let filter = sourceID == nil ? "" : " WHERE source_id = ?"
            let arguments: StatementArguments = sourceID.map { [$0] } ?? []
            let responseFilter = sourceID == nil ? "" : " AND source_id = ?"
            for row in try Row.fetchAll(db, sql: """
                SELECT source_id, COUNT(*) AS n, SUM(expires_at > ?) AS fresh, SUM(LENGTH(body) + LENGTH(headers)) AS bytes,
                       MIN(stored_at) AS oldest, MAX(stored_at) AS newest
                FROM http_response WHERE 1 = 1\(responseFilter) GROUP BY source_id
                """, arguments: [now.timeIntervalSince1970] + arguments) {
                var value = entry(row["source_id"])
                value.responses = row["n"]
                value.freshResponses = row["fresh"] ?? 0
                value.bytes = row["bytes"] ?? 0
                value.oldestResponse = (row["oldest"] as Double?).map(Date.init(timeIntervalSince1970:))
                value.newestResponse = (row["newest"] as Double?).map(Date.init(timeIntervalSince1970:))
                stats[value.sourceID] = value
            }
            for row in try Row.fetchAll(db, sql: "SELECT source_id, items, saved_at FROM source_snapshot\(filter)", arguments: arguments) {
                var value = entry(row["source_id"])
                value.snapshotItems += StoreCoding.itemCount(row["items"])
                let savedAt = Date(timeIntervalSince1970: row["saved_at"])
                value.snapshotSavedAt = max(value.snapshotSavedAt ?? savedAt, savedAt)
                stats[value.sourceID] = value
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT source_id, COUNT(*) AS n FROM seen_item JOIN history_source ON key = source_key\(filter)
                GROUP BY source_id
                """, arguments: arguments) {
                var value = entry(row["source_id"])
                value.historyItems = row["n"]
                stats[value.sourceID] = value
            }
            return stats.values.sorted { $0.sourceID < $1.sourceID }
        }
    }

    /// Removes stored responses and last good copies (of every source, or only `sourceID`'s).
    public func clearCache(sourceID: String? = nil) throws(SourceError) -> StoreMaintenance.Removed {
        try database.write { db in
            var removed = StoreMaintenance.Removed()
            let filter = sourceID == nil ? "" : " WHERE source_id = ?"
            let arguments: StatementArguments = sourceID.map { [$0] } ?? []
            try db.execute(sql: "DELETE FROM http_response\(filter)", arguments: arguments)
            removed.responses = db.changesCount
            try db.execute(sql: "DELETE FROM source_snapshot\(filter)", arguments: arguments)
            removed.snapshots = db.changesCount
            return removed
        }
    }

    /// Forgets which items were seen (every source, or only `sourceID`): the next `--new` shows everything.
    public func clearHistory(sourceID: String? = nil) throws(SourceError) -> StoreMaintenance.Removed {
        try database.write { db in
            var removed = StoreMaintenance.Removed()
            let filter = sourceID == nil ? "" : " WHERE source_id = ?"
            let keys = try Int64.fetchAll(db, sql: "SELECT key FROM history_source\(filter)", arguments: sourceID.map { [$0] } ?? [])
            removed.historyItems = try HistorySources.forget(keys: keys, in: db)
            return removed
        }
    }
}
