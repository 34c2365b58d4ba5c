import Domain
import Foundation
import PostgresNIO

/// The fleet's schedule on PostgreSQL (`fleet_source`): a claim is one statement, `FOR UPDATE SKIP LOCKED` over
/// the due index, so workers claiming at once take different sources without waiting for each other, and a
/// batch of sources costs one round trip to claim and one to finish. Every time is the server's (`now()`).
public struct PostgresFleetSchedule: Sendable {
    private let database: PostgresStoreDatabase

    public init(database: PostgresStoreDatabase) {
        self.database = database
    }

    /// The server's clock, in the schema's unit (seconds since 1970).
    private static let now = "EXTRACT(EPOCH FROM now())::double precision"
    /// A source nobody holds: never claimed, given back, or its holder's claim expired.
    private static let free = "(claim_until IS NULL OR claim_until < \(now))"
}

extension PostgresFleetSchedule: FleetScheduleRepository {
    public func register(_ manifest: FleetManifest, worker: String, adopt: Bool) throws(SourceError) -> FleetRegistration {
        try database.transaction { session in
            // One registration at a time across the fleet (released at commit): workers starting together agree.
            try await session.execute("SELECT pg_advisory_xact_lock(hashtextextended('aggregate.fleet', 0))")
            try await session.execute("""
                INSERT INTO fleet_worker (worker_id, started_at, seen_at)
                VALUES (\(worker), \(unescaped: Self.now), \(unescaped: Self.now))
                ON CONFLICT (worker_id) DO UPDATE SET seen_at = excluded.seen_at
                """)
            var stored: [String: FleetManifest.Source] = [:]
            for row in try await session.rows("SELECT source_id, fingerprint, interval_seconds FROM fleet_source") {
                let source = FleetManifest.Source(
                    id: try row[0].decode(String.self), fingerprint: try row[1].decode(String.self),
                    intervalSeconds: try row[2].decode(Double.self))
                stored[source.id] = source
            }
            let wanted = Set(manifest.sources.map(\.id))
            let added = manifest.sources.filter { stored[$0.id] == nil }
            let removed = stored.keys.filter { !wanted.contains($0) }.sorted()
            let changed = manifest.sources.filter { source in stored[source.id].map { $0 != source } ?? false }
            let differs = !(added.isEmpty && removed.isEmpty && changed.isEmpty)
            try await session.execute("""
                UPDATE fleet_worker SET manifest_differs = \(!stored.isEmpty && differs && !adopt) WHERE worker_id = \(worker)
                """)
            if !stored.isEmpty, differs, !adopt {
                return .differs(onlyHere: added.map(\.id), onlyInFleet: removed, changed: changed.map(\.id))
            }
            if !added.isEmpty {
                try await session.execute("""
                    INSERT INTO fleet_source (source_id, fingerprint, interval_seconds, due_at)
                    SELECT id, fingerprint, interval, \(unescaped: Self.now)
                    FROM unnest(\(added.map(\.id))::text[], \(added.map(\.fingerprint))::text[],
                                \(added.map(\.intervalSeconds))::double precision[]) AS s(id, fingerprint, interval)
                    """)
            }
            if !changed.isEmpty {
                // Other options make another source: due at once, its failures forgotten. A new interval alone
                // keeps the next run.
                try await session.execute("""
                    UPDATE fleet_source f SET
                        due_at = CASE WHEN f.fingerprint = s.fingerprint THEN f.due_at ELSE \(unescaped: Self.now) END,
                        failures = CASE WHEN f.fingerprint = s.fingerprint THEN f.failures ELSE 0 END,
                        fingerprint = s.fingerprint, interval_seconds = s.interval
                    FROM unnest(\(changed.map(\.id))::text[], \(changed.map(\.fingerprint))::text[],
                                \(changed.map(\.intervalSeconds))::double precision[]) AS s(id, fingerprint, interval)
                    WHERE f.source_id = s.id
                    """)
            }
            if !removed.isEmpty {
                try await session.execute("DELETE FROM fleet_source WHERE source_id = ANY(\(removed)::text[])")
            }
            var generation = try await Self.generation(session)
            if stored.isEmpty || differs {
                generation = try await session.rows("""
                    INSERT INTO fleet_manifest (singleton, registered_by, registered_at)
                    VALUES (true, \(worker), \(unescaped: Self.now))
                    ON CONFLICT (singleton) DO UPDATE SET generation = fleet_manifest.generation + 1,
                        registered_by = excluded.registered_by, registered_at = excluded.registered_at
                    RETURNING generation
                    """).first?[0].decode(Int.self) ?? generation
            }
            return .registered(added: added.count, removed: removed.count, changed: changed.count, generation: generation)
        }
    }

    public func claim(
        worker: String, limit: Int, holdSeconds: Double, generation: Int
    ) throws(SourceError) -> (claims: [FleetClaim], generation: Int) {
        try database.withSession { session in
            // The generation is read in the statement's own snapshot, which holds a manifest's new sources and
            // its new generation together or neither.
            let claims = try await session.rows("""
                WITH due AS (
                    SELECT source_id FROM fleet_source
                    WHERE due_at <= \(unescaped: Self.now) AND \(unescaped: Self.free)
                        AND (SELECT generation FROM fleet_manifest) = \(generation)
                    ORDER BY due_at LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED)
                UPDATE fleet_source f SET claimed_by = \(worker), claim_until = \(unescaped: Self.now) + \(holdSeconds)
                FROM due WHERE f.source_id = due.source_id
                RETURNING f.source_id, f.failures::bigint, \(unescaped: Self.now) - f.due_at, f.interval_seconds
                """
            ).map { row in
                FleetClaim(id: try row[0].decode(String.self), failures: try row[1].decode(Int.self),
                           lagSeconds: max(0, try row[2].decode(Double.self)), intervalSeconds: try row[3].decode(Double.self))
            }
            return (claims, claims.isEmpty ? try await Self.generation(session) : generation)
        }
    }

    @discardableResult
    public func renew(
        worker: String, holding: [String], holdSeconds: Double
    ) throws(SourceError) -> (held: Int, generation: Int) {
        try database.withSession { session in
            try await session.execute("UPDATE fleet_worker SET seen_at = \(unescaped: Self.now) WHERE worker_id = \(worker)")
            // One statement: what the worker runs is extended, what it does not know it holds is given back.
            let held = try await session.rows("""
                WITH renewed AS (
                    UPDATE fleet_source SET
                        claimed_by = CASE WHEN source_id = ANY(\(holding)::text[]) THEN claimed_by END,
                        claim_until = CASE WHEN source_id = ANY(\(holding)::text[])
                            THEN \(unescaped: Self.now) + \(holdSeconds) END
                    WHERE claimed_by = \(worker)
                    RETURNING claimed_by)
                SELECT count(claimed_by) FROM renewed
                """).first?[0].decode(Int.self) ?? 0
            return (held, try await Self.generation(session))
        }
    }

    /// The fleet's manifest's generation (0 before any).
    private static func generation(_ session: PostgresSession) async throws -> Int {
        try await session.rows("SELECT generation FROM fleet_manifest").first?[0].decode(Int.self) ?? 0
    }

    public func complete(worker: String, results: [FleetRunResult]) throws(SourceError) -> Int {
        guard !results.isEmpty else { return 0 }
        return try database.withSession { session in
            try await session.execute("""
                UPDATE fleet_source f SET claimed_by = NULL, claim_until = NULL, due_at = \(unescaped: Self.now) + r.next,
                    failures = r.failures, last_status = r.status, last_finished_at = \(unescaped: Self.now)
                FROM unnest(\(results.map(\.id))::text[], \(results.map(\.nextInSeconds))::double precision[],
                            \(results.map(\.failures))::bigint[], \(results.map(\.status.rawValue))::text[])
                    AS r(id, next, failures, status)
                WHERE f.source_id = r.id AND f.claimed_by = \(worker)
                """)
        }
    }

    public func release(worker: String) throws(SourceError) {
        try database.withSession { session in
            try await session.execute("UPDATE fleet_source SET claimed_by = NULL, claim_until = NULL WHERE claimed_by = \(worker)")
        }
    }

    public func status(recentSeconds: Double) throws(SourceError) -> FleetStatus {
        try database.withSession { session in
            let counts = try await session.rows("""
                SELECT count(*), count(*) FILTER (WHERE due_at <= \(unescaped: Self.now) AND \(unescaped: Self.free)),
                    count(*) FILTER (WHERE due_at + interval_seconds <= \(unescaped: Self.now) AND \(unescaped: Self.free)),
                    count(*) FILTER (WHERE NOT \(unescaped: Self.free))
                FROM fleet_source
                """).first
            let oldest = try await session.rows("""
                SELECT source_id, due_at FROM fleet_source WHERE due_at <= \(unescaped: Self.now) AND \(unescaped: Self.free)
                ORDER BY due_at LIMIT 1
                """).first.map { row in
                FleetStatus.DueSource(
                    id: try row[0].decode(String.self), since: Date(timeIntervalSince1970: try row[1].decode(Double.self)))
            }
            let workers = try await session.rows("""
                SELECT w.worker_id, w.seen_at, count(f.source_id), w.manifest_differs
                FROM fleet_worker w
                LEFT JOIN fleet_source f ON f.claimed_by = w.worker_id AND f.claim_until >= \(unescaped: Self.now)
                WHERE w.seen_at >= \(unescaped: Self.now) - \(recentSeconds)
                GROUP BY w.worker_id, w.seen_at, w.manifest_differs ORDER BY w.seen_at DESC, w.worker_id
                """).map { row in
                FleetStatus.Worker(
                    id: try row[0].decode(String.self), lastSeen: Date(timeIntervalSince1970: try row[1].decode(Double.self)),
                    holding: try row[2].decode(Int.self), manifestDiffers: try row[3].decode(Bool.self))
            }
            return FleetStatus(
                sources: try counts?[0].decode(Int.self) ?? 0, due: try counts?[1].decode(Int.self) ?? 0,
                overdue: try counts?[2].decode(Int.self) ?? 0, held: try counts?[3].decode(Int.self) ?? 0,
                oldestDue: oldest, workers: workers)
        }
    }

    public func makeDue(_ id: String) throws(SourceError) -> Bool {
        try database.withSession { session in
            try await session.execute("""
                UPDATE fleet_source SET due_at = LEAST(due_at, \(unescaped: Self.now)) WHERE source_id = \(id)
                """) > 0
        }
    }
}
