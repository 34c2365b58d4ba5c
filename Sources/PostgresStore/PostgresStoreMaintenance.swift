import Domain
import Foundation
import PostgresNIO
import StoreSupport

/// `aggregate cache stats|clear` and `aggregate history clear` on the shared store: what SQLite's
/// `StoreMaintenance` does, for every process sharing it at once.
public struct PostgresStoreMaintenance: StoreMaintaining {
    private let database: PostgresStoreDatabase

    public init(database: PostgresStoreDatabase) {
        self.database = database
    }

    public func stats(sourceID: String?, now: Date) throws(SourceError) -> [StoreMaintenance.SourceStats] {
        try database.withSession { session in
            var stats: [String: StoreMaintenance.SourceStats] = [:]
            func entry(_ id: String) -> StoreMaintenance.SourceStats { stats[id] ?? StoreMaintenance.SourceStats(sourceID: id) }
            for row in try await session.rows("""
                SELECT source_id, COUNT(*), COUNT(*) FILTER (WHERE expires_at > \(now.timeIntervalSince1970)),
                    COALESCE(SUM(octet_length(body) + octet_length(headers)), 0)::bigint, MIN(stored_at), MAX(stored_at)
                FROM http_response WHERE \(sourceID)::text IS NULL OR source_id = \(sourceID)::text GROUP BY source_id
                """) {
                var value = entry(try row[0].decode(String.self))
                value.responses = try row[1].decode(Int.self)
                value.freshResponses = try row[2].decode(Int.self)
                value.bytes = try row[3].decode(Int.self)
                value.oldestResponse = try row[4].decode(Double?.self).map(Date.init(timeIntervalSince1970:))
                value.newestResponse = try row[5].decode(Double?.self).map(Date.init(timeIntervalSince1970:))
                stats[value.sourceID] = value
            }
            for row in try await session.rows("""
                SELECT source_id, items, saved_at FROM source_snapshot WHERE \(sourceID)::text IS NULL OR source_id = \(sourceID)::text
                """) {
                var value = entry(try row[0].decode(String.self))
                value.snapshotItems += StoreCoding.itemCount(try row[1].decode(Data.self))
                let savedAt = Date(timeIntervalSince1970: try row[2].decode(Double.self))
                value.snapshotSavedAt = max(value.snapshotSavedAt ?? savedAt, savedAt)
                stats[value.sourceID] = value
            }
            for row in try await session.rows("""
                SELECT source_id, COUNT(*) FROM seen_item WHERE \(sourceID)::text IS NULL OR source_id = \(sourceID)::text GROUP BY source_id
                """) {
                var value = entry(try row[0].decode(String.self))
                value.historyItems = try row[1].decode(Int.self)
                stats[value.sourceID] = value
            }
            return stats.values.sorted { $0.sourceID < $1.sourceID }
        }
    }

    public func clearCache(sourceID: String?) throws(SourceError) -> StoreMaintenance.Removed {
        try database.transaction { session in
            StoreMaintenance.Removed(
                responses: try await session.execute(
                    "DELETE FROM http_response WHERE \(sourceID)::text IS NULL OR source_id = \(sourceID)::text"),
                snapshots: try await session.execute(
                    "DELETE FROM source_snapshot WHERE \(sourceID)::text IS NULL OR source_id = \(sourceID)::text"))
        }
    }

    public func clearHistory(sourceID: String?) throws(SourceError) -> StoreMaintenance.Removed {
        try database.withSession { session in
            StoreMaintenance.Removed(
                historyItems: try await session.execute("DELETE FROM seen_item WHERE \(sourceID)::text IS NULL OR source_id = \(sourceID)::text"))
        }
    }
}
