import Domain
import Foundation
import PostgresNIO
import StoreSupport
import Synchronization

/// The sinks' outbox in the shared store: `sink_seen` and `sink_delivery`, as in SQLite.
///
/// Nothing twice across processes: `enqueue` inserts what a sink has seen with `ON CONFLICT DO NOTHING
/// RETURNING` in the transaction that queues the deliveries, so of several processes offered the same item
/// exactly one queues it. And one process at a time sends a sink's deliveries: `pending` takes the sink's
/// advisory lock (on a connection of its own, without waiting) and returns nothing while another process
/// holds it; the lock goes when every delivery it returned was marked delivered or failed, or with the
/// holder's session (a killed process). A delivery sent and not yet marked when its sender died is sent again,
/// with the same id, by the next holder: the receiver drops it by `deliveryId`, as with SQLite.
public final class PostgresSinkOutboxRepository: Sendable {
    private let database: PostgresStoreDatabase
    /// Per sink: the lease this process holds and the deliveries it returned that are not marked yet.
    private let claims = Mutex<[String: Claim]>([:])

    private struct Claim: Sendable {
        var lease: PostgresAdvisoryLease
        var outstanding: Set<String>
    }

    /// Delivered rows are kept this long, for `aggregate sinks status`'s counts; their payload goes at once.
    static let deliveredRetention: TimeInterval = 30 * 86_400

    public init(database: PostgresStoreDatabase) {
        self.database = database
    }

    private static let summaryColumns = "delivery_id, sink_id, state, item_count, attempts, created_at, last_error"

    private static func summary(_ row: PostgresRandomAccessRow) throws -> SinkDeliverySummary {
        SinkDeliverySummary(
            id: try row[0].decode(String.self), sink: try row[1].decode(String.self),
            state: SinkDeliveryState(rawValue: try row[2].decode(String.self)) ?? .pending,
            itemCount: try row[3].decode(Int.self), attempts: try row[4].decode(Int.self),
            createdAt: Date(timeIntervalSince1970: try row[5].decode(Double.self)),
            lastError: try row[6].decode(String?.self))
    }

    /// The delivery was marked: when it was the last one this process claimed for its sink, the sink's lock goes.
    private func settle(_ deliveryID: String) {
        let done = claims.withLock { claims -> PostgresAdvisoryLease? in
            guard let sink = claims.first(where: { $0.value.outstanding.contains(deliveryID) })?.key else { return nil }
            claims[sink]?.outstanding.remove(deliveryID)
            guard claims[sink]?.outstanding.isEmpty == true else { return nil }
            return claims.removeValue(forKey: sink)?.lease
        }
        done?.release()
    }
}

extension PostgresSinkOutboxRepository: SinkOutboxRepository {
    public func enqueue(
        sink: String, items: [SinkItem], batchSize: Int, at date: Date
    ) throws(SourceError) -> [SinkDelivery] {
        let sources = items.map(\.source)
        let ids = items.map(\.item.id)
        let time = date.timeIntervalSince1970
        return try database.transaction { session in
            let inserted = try await session.rows("""
                INSERT INTO sink_seen (sink_id, source_id, item_id, first_seen_at)
                SELECT DISTINCT \(sink), s, i, \(time)::double precision FROM unnest(\(sources)::text[], \(ids)::text[]) AS t(s, i)
                ON CONFLICT DO NOTHING RETURNING source_id, item_id
                """).map { (source: try $0[0].decode(String.self), item: try $0[1].decode(String.self)) }
            let queued = StoreCoding.deliveries(
                of: StoreCoding.unseen(items, inserted: inserted), sink: sink, batchSize: batchSize, at: date)
            for delivery in queued {
                try await session.execute("""
                    INSERT INTO sink_delivery (delivery_id, sink_id, state, items, item_count, created_at)
                    VALUES (\(delivery.id), \(sink), 'pending', \(delivery.itemLines), \(delivery.itemCount), \(time))
                    """)
            }
            try await session.execute("""
                DELETE FROM sink_delivery WHERE sink_id = \(sink) AND state = 'delivered'
                AND delivered_at < \(time - Self.deliveredRetention)
                """)
            return queued
        }
    }

    public func pending(sink: String, now: Date) throws(SourceError) -> [SinkDelivery] {
        let held = claims.withLock { $0[sink] != nil }
        var taken: PostgresAdvisoryLease?
        if !held {
            // Another process is sending this sink's deliveries: they are its to send.
            guard let lease = try PostgresAdvisoryLease.tryAcquire("sink:" + sink, in: database) else { return [] }
            taken = lease
        }
        let due: [SinkDelivery]
        do throws(SourceError) {
            due = try database.withSession { session in
                var due: [SinkDelivery] = []
                for row in try await session.rows("""
                    SELECT delivery_id, items, item_count, attempts, created_at, not_before FROM sink_delivery
                    WHERE sink_id = \(sink) AND state = 'pending' ORDER BY seq
                    """) {
                    // Oldest first, and in order: a delivery the receiver asked to wait for holds back later ones.
                    if let notBefore = try row[5].decode(Double?.self), notBefore > now.timeIntervalSince1970 { break }
                    due.append(SinkDelivery(
                        id: try row[0].decode(String.self), sink: sink, itemLines: try row[1].decode(Data.self),
                        itemCount: try row[2].decode(Int.self), attempts: try row[3].decode(Int.self),
                        createdAt: Date(timeIntervalSince1970: try row[4].decode(Double.self))))
                }
                return due
            }
        } catch {
            taken?.release()
            throw error
        }
        let released = claims.withLock { claims -> PostgresAdvisoryLease? in
            if let taken { claims[sink] = Claim(lease: taken, outstanding: []) }
            claims[sink]?.outstanding = Set(due.map(\.id))
            guard due.isEmpty else { return nil }
            return claims.removeValue(forKey: sink)?.lease
        }
        released?.release()
        return due
    }

    public func markDelivered(_ deliveryID: String, at date: Date) throws(SourceError) {
        let time = date.timeIntervalSince1970
        try database.withSession { session in
            try await session.execute("""
                UPDATE sink_delivery SET state = 'delivered', items = '\\x'::bytea, attempts = attempts + 1,
                    last_attempt_at = \(time), delivered_at = \(time), not_before = NULL, last_error = NULL
                WHERE delivery_id = \(deliveryID)
                """)
        }
        settle(deliveryID)
    }

    public func markFailed(
        _ deliveryID: String, error: String, permanently: Bool, notBefore: Date?, at date: Date
    ) throws(SourceError) {
        let state = permanently ? SinkDeliveryState.failed.rawValue : SinkDeliveryState.pending.rawValue
        try database.withSession { session in
            try await session.execute("""
                UPDATE sink_delivery SET state = \(state), attempts = attempts + 1,
                    last_attempt_at = \(date.timeIntervalSince1970), last_error = \(error),
                    not_before = \(notBefore?.timeIntervalSince1970)
                WHERE delivery_id = \(deliveryID) AND state <> 'delivered'
                """)
        }
        settle(deliveryID)
    }

    public func counts() throws(SourceError) -> [SinkDeliveryCounts] {
        try database.withSession { session in
            try await session.rows("""
                SELECT sink_id, COUNT(*) FILTER (WHERE state = 'pending'), COUNT(*) FILTER (WHERE state = 'failed'),
                    COUNT(*) FILTER (WHERE state = 'delivered'), MIN(created_at) FILTER (WHERE state = 'pending')
                FROM sink_delivery GROUP BY sink_id ORDER BY sink_id
                """).map { row in
                SinkDeliveryCounts(
                    sink: try row[0].decode(String.self), pending: try row[1].decode(Int.self),
                    failed: try row[2].decode(Int.self), delivered: try row[3].decode(Int.self),
                    oldestPending: try row[4].decode(Double?.self).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func undelivered() throws(SourceError) -> [SinkDeliverySummary] {
        try database.withSession { session in
            try await session.rows(PostgresQuery(unsafeSQL: """
                SELECT \(Self.summaryColumns) FROM sink_delivery WHERE state <> 'delivered' ORDER BY seq
                """)).map(Self.summary)
        }
    }

    public func undelivered(matching id: String) throws(SourceError) -> [SinkDeliverySummary] {
        var binds = PostgresBindings()
        binds.append(id)
        let query = PostgresQuery(unsafeSQL: """
            SELECT \(Self.summaryColumns) FROM sink_delivery
            WHERE state <> 'delivered' AND (delivery_id = $1 OR sink_id = $1) ORDER BY seq
            """, binds: binds)
        return try database.withSession { session in try await session.rows(query).map(Self.summary) }
    }

    public func retry(_ id: String) throws(SourceError) -> Int {
        try database.withSession { session in
            try await session.execute("""
                UPDATE sink_delivery SET state = 'pending', not_before = NULL
                WHERE state <> 'delivered' AND (delivery_id = \(id) OR sink_id = \(id))
                """)
        }
    }

    public func drop(_ id: String) throws(SourceError) -> Int {
        try database.withSession { session in
            try await session.execute("""
                DELETE FROM sink_delivery WHERE state <> 'delivered' AND (delivery_id = \(id) OR sink_id = \(id))
                """)
        }
    }
}
