import Domain
import Foundation
import GRDB

/// What `aggregate cache stats|clear` and `aggregate history clear` do, whichever store is behind them.
public protocol StoreMaintaining: Sendable {
    /// Per source (sorted by id), or only `sourceID`'s.
    func stats(sourceID: String?, now: Date) throws(SourceError) -> [StoreMaintenance.SourceStats]
    /// Removes stored responses and last good copies (of every source, or only `sourceID`'s).
    func clearCache(sourceID: String?) throws(SourceError) -> StoreMaintenance.Removed
    /// Forgets which items were seen (every source, or only `sourceID`).
    func clearHistory(sourceID: String?) throws(SourceError) -> StoreMaintenance.Removed
}

/// What `aggregate cache stats|clear` and `aggregate history clear` do on the SQLite store.
public struct StoreMaintenance: StoreMaintaining {
    /// One source's share of the store.
    public struct SourceStats: Sendable, Hashable {
        public var sourceID: String
        public var responses: Int
        public var freshResponses: Int
        public var bytes: Int
        /// When the oldest stored response was received or last confirmed.
        public var oldestResponse: Date?
        public var newestResponse: Date?
        /// Items in the last good copies (all variants).
        public var snapshotItems: Int
        public var snapshotSavedAt: Date?
        /// Items in the `--new` history.
        public var historyItems: Int

        public init(
            sourceID: String, responses: Int = 0, freshResponses: Int = 0, bytes: Int = 0, oldestResponse: Date? = nil,
            newestResponse: Date? = nil, snapshotItems: Int = 0, snapshotSavedAt: Date? = nil, historyItems: Int = 0
        ) {
            self.sourceID = sourceID
            self.responses = responses
            self.freshResponses = freshResponses
            self.bytes = bytes
            self.oldestResponse = oldestResponse
            self.newestResponse = newestResponse
            self.snapshotItems = snapshotItems
            self.snapshotSavedAt = snapshotSavedAt
            self.historyItems = historyItems
        }
    }

    /// What a clear removed.
    public struct Removed: Sendable, Hashable {
        public var responses = 0
        public var snapshots = 0
        public var historyItems = 0

        public init(responses: Int = 0, snapshots: Int = 0, historyItems: Int = 0) {
            self.responses = responses
            self.snapshots = snapshots
            self.historyItems = historyItems
        }
    }

    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Per source (sorted by id), or only `sourceID`'s.
    public func stats(sourceID: String? = nil, now: Date = Date()) throws(SourceError) -> [SourceStats] {
        try database.read { db in
            var stats: [String: SourceStats] = [:]
            func entry(_ id: String) -> SourceStats {
                stats[id] ?? SourceStats(sourceID: id)
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
    public func clearCache(sourceID: String? = nil) throws(SourceError) -> Removed {
        try database.write { db in
            var removed = Removed()
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
    public func clearHistory(sourceID: String? = nil) throws(SourceError) -> Removed {
        try database.write { db in
            var removed = Removed()
            let filter = sourceID == nil ? "" : " WHERE source_id = ?"
            let keys = try Int64.fetchAll(db, sql: "SELECT key FROM history_source\(filter)", arguments: sourceID.map { [$0] } ?? [])
            removed.historyItems = try HistorySources.forget(keys: keys, in: db)
            return removed
        }
    }
}
