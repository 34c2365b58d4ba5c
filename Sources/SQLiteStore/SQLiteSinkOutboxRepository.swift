import Domain
import Foundation
import GRDB
import StoreSupport

/// The sinks' outbox in the SQLite store: `sink_seen` (what each sink has seen) and `sink_delivery` (items as
/// NDJSON, kept until delivered).
public struct SQLiteSinkOutboxRepository: Sendable {
    private let database: AppDatabase

    /// Delivered rows are kept this long, for `aggregate sinks status`'s counts; their payload goes at once.
    static let deliveredRetention: TimeInterval = 30 * 86_400

    public init(database: AppDatabase) {
        self.database = database
    }

    private static let summaryColumns = "delivery_id, sink_id, state, item_count, attempts, created_at, last_error"

    private static func summary(_ row: Row) -> SinkDeliverySummary {
        SinkDeliverySummary(
            id: row["delivery_id"], sink: row["sink_id"],
            state: SinkDeliveryState(rawValue: row["state"]) ?? .pending, itemCount: row["item_count"],
            attempts: row["attempts"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
            lastError: row["last_error"])
    }
}

extension SQLiteSinkOutboxRepository: SinkOutboxRepository {
    public func enqueue(
        sink: String, items: [SinkItem], batchSize: Int, at date: Date
    ) throws(SourceError) -> [SinkDelivery] {
        var keys = JSONWriter(capacity: items.count * 32)
        keys.beginArray()
        for entry in items {
            keys.beginArray()
            keys.string(entry.source)
            keys.string(entry.item.id)
            keys.endArray()
        }
        keys.endArray()
        return try database.write { db in
            // One statement for the batch; RETURNING names the rows inserted, i.e. the items this sink never saw.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    INSERT OR IGNORE INTO sink_seen (sink_id, source_id, item_id, first_seen_at)
                    SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), ? FROM json_each(?)
                    RETURNING source_id, item_id
                    """,
                arguments: [sink, date.timeIntervalSince1970, keys.text])
            let fresh = StoreCoding.unseen(items, inserted: rows.map { ($0["source_id"], $0["item_id"]) })
            let queued = StoreCoding.deliveries(of: fresh, sink: sink, batchSize: batchSize, at: date)
            for delivery in queued {
                try db.execute(
                    sql: """
                        INSERT INTO sink_delivery (delivery_id, sink_id, state, items, item_count, created_at)
                        VALUES (?, ?, 'pending', ?, ?, ?)
                        """,
                    arguments: [delivery.id, sink, delivery.itemLines, delivery.itemCount, date.timeIntervalSince1970])
            }
            try db.execute(
                sql: "DELETE FROM sink_delivery WHERE sink_id = ? AND state = 'delivered' AND delivered_at < ?",
                arguments: [sink, date.timeIntervalSince1970 - Self.deliveredRetention])
            return queued
        }
    }

    public func pending(sink: String, now: Date) throws(SourceError) -> [SinkDelivery] {
        let rows = try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT delivery_id, items, item_count, attempts, created_at, not_before FROM sink_delivery
                    WHERE sink_id = ? AND state = 'pending' ORDER BY seq
                    """,
                arguments: [sink])
        }
        // Oldest first, and in order: a delivery the receiver asked to wait for holds back the later ones.
        var due: [SinkDelivery] = []
        for row in rows {
            if let notBefore: Double = row["not_before"], notBefore > now.timeIntervalSince1970 { break }
            due.append(SinkDelivery(
                id: row["delivery_id"], sink: sink, itemLines: row["items"], itemCount: row["item_count"],
                attempts: row["attempts"], createdAt: Date(timeIntervalSince1970: row["created_at"])))
        }
        return due
    }

    public func markDelivered(_ deliveryID: String, at date: Date) throws(SourceError) {
        try database.write { db in
            try db.execute(
                sql: """
                    UPDATE sink_delivery SET state = 'delivered', items = x'', attempts = attempts + 1,
                        last_attempt_at = ?, delivered_at = ?, not_before = NULL, last_error = NULL
                    WHERE delivery_id = ?
                    """,
                arguments: [date.timeIntervalSince1970, date.timeIntervalSince1970, deliveryID])
        }
    }

    public func markFailed(
        _ deliveryID: String, error: String, permanently: Bool, notBefore: Date?, at date: Date
    ) throws(SourceError) {
        try database.write { db in
            try db.execute(
                sql: """
                    UPDATE sink_delivery SET state = ?, attempts = attempts + 1, last_attempt_at = ?, last_error = ?,
                        not_before = ?
                    WHERE delivery_id = ? AND state != 'delivered'
                    """,
                arguments: [
                    permanently ? SinkDeliveryState.failed.rawValue : SinkDeliveryState.pending.rawValue,
                    date.timeIntervalSince1970, error, notBefore?.timeIntervalSince1970, deliveryID,
                ])
        }
    }

    public func counts() throws(SourceError) -> [SinkDeliveryCounts] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT sink_id, SUM(state = 'pending') AS pending, SUM(state = 'failed') AS failed,
                        SUM(state = 'delivered') AS delivered,
                        MIN(CASE WHEN state = 'pending' THEN created_at END) AS oldest_pending
                    FROM sink_delivery GROUP BY sink_id ORDER BY sink_id
                    """
            ).map { row in
                SinkDeliveryCounts(
                    sink: row["sink_id"], pending: row["pending"], failed: row["failed"], delivered: row["delivered"],
                    oldestPending: (row["oldest_pending"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func undelivered() throws(SourceError) -> [SinkDeliverySummary] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.summaryColumns) FROM sink_delivery WHERE state != 'delivered' ORDER BY seq"
            ).map(Self.summary)
        }
    }

    public func undelivered(matching id: String) throws(SourceError) -> [SinkDeliverySummary] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.summaryColumns) FROM sink_delivery
                    WHERE state != 'delivered' AND (delivery_id = ? OR sink_id = ?) ORDER BY seq
                    """,
                arguments: [id, id]
            ).map(Self.summary)
        }
    }

    public func retry(_ id: String) throws(SourceError) -> Int {
        try database.write { db in
            try db.execute(
                sql: """
                    UPDATE sink_delivery SET state = 'pending', not_before = NULL
                    WHERE state != 'delivered' AND (delivery_id = ? OR sink_id = ?)
                    """,
                arguments: [id, id])
            return db.changesCount
        }
    }

    public func drop(_ id: String) throws(SourceError) -> Int {
        try database.write { db in
            try db.execute(
                sql: "DELETE FROM sink_delivery WHERE state != 'delivered' AND (delivery_id = ? OR sink_id = ?)",
                arguments: [id, id])
            return db.changesCount
        }
    }
}
