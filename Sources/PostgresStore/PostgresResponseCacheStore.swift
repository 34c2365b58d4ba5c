import Domain
import Foundation
import PostgresNIO
import StoreSupport

/// The HTTP response cache in the shared store's `http_response` table, with fetch leases: a process about to
/// ask a service for a response takes a session advisory lock on its key, so the others wait for that one
/// request and read its stored answer (see docs/ARCHITECTURE.md, "The shared store").
public struct PostgresResponseCacheStore: Sendable {
    private let database: PostgresStoreDatabase

    /// The longest a process waits for another's fetch when its source has no deadline.
    static let defaultLeaseWaitSeconds: Double = 30

    public init(database: PostgresStoreDatabase) {
        self.database = database
    }

    /// Every stored key of `sourceID` (for tests and diagnostics; keys hold no secrets).
    public func keys(sourceID: String) throws(SourceError) -> [String] {
        try database.withSession { session in
            try await session.rows("SELECT key FROM http_response WHERE source_id = \(sourceID) ORDER BY key").map {
                try $0[0].decode(String.self)
            }
        }
    }
}

extension PostgresResponseCacheStore: ResponseCacheStore {
    public func response(forKey key: String) throws(SourceError) -> StoredResponse? {
        try database.withSession { session in
            guard let row = try await session.rows("""
                SELECT status, headers, body, stored_at, expires_at FROM http_response WHERE key = \(key)
                """).first else { return nil }
            return StoredResponse(
                status: try row[0].decode(Int.self), headers: StoreCoding.decodeHeaders(try row[1].decode(String.self)),
                body: try row[2].decode(Data.self), storedAt: Date(timeIntervalSince1970: try row[3].decode(Double.self)),
                expiresAt: Date(timeIntervalSince1970: try row[4].decode(Double.self)))
        }
    }

    public func store(_ response: StoredResponse, forKey key: String, sourceID: String) throws(SourceError) {
        let headers = StoreCoding.encodeHeaders(response.headers)
        try database.withSession { session in
            try await session.execute("""
                INSERT INTO http_response (key, source_id, status, headers, body, stored_at, expires_at)
                VALUES (\(key), \(sourceID), \(response.status), \(headers), \(response.body),
                        \(response.storedAt.timeIntervalSince1970), \(response.expiresAt.timeIntervalSince1970))
                ON CONFLICT (key) DO UPDATE SET source_id = EXCLUDED.source_id, status = EXCLUDED.status,
                    headers = EXCLUDED.headers, body = EXCLUDED.body, stored_at = EXCLUDED.stored_at,
                    expires_at = EXCLUDED.expires_at
                """)
        }
    }

    public func refresh(key: String, storedAt: Date, expiresAt: Date) throws(SourceError) {
        try database.withSession { session in
            try await session.execute("""
                UPDATE http_response SET stored_at = \(storedAt.timeIntervalSince1970),
                    expires_at = \(expiresAt.timeIntervalSince1970) WHERE key = \(key)
                """)
        }
    }

    public func removeResponse(forKey key: String) throws(SourceError) {
        try database.withSession { session in
            try await session.execute("DELETE FROM http_response WHERE key = \(key)")
        }
    }
}

extension PostgresResponseCacheStore: SharedResponseCacheStore {
    public func acquireFetchLease(forKey key: String, cancellation: CancellationToken) -> (any ResponseFetchLease)? {
        let seconds = min(cancellation.remainingSeconds ?? Self.defaultLeaseWaitSeconds, 3600)
        guard seconds > 0, !cancellation.isCancelled else { return nil }
        return try? PostgresAdvisoryLease.acquire(
            "fetch:" + key, in: database, waitingAtMost: seconds, cancellation: cancellation)
    }

    public func rateLimit(_ key: String) throws(SourceError) -> Date? {
        try database.withSession { session in
            try await session.rows("SELECT until_at FROM rate_limit WHERE budget_key = \(key)").first
                .map { Date(timeIntervalSince1970: try $0[0].decode(Double.self)) }
        }
    }

    public func recordRateLimit(_ key: String, until: Date) throws(SourceError) {
        try database.withSession { session in
            try await session.execute("""
                INSERT INTO rate_limit (budget_key, until_at) VALUES (\(key), \(until.timeIntervalSince1970))
                ON CONFLICT (budget_key) DO UPDATE SET until_at = GREATEST(rate_limit.until_at, EXCLUDED.until_at)
                """)
        }
    }
}
