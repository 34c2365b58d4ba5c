import Domain
import Foundation
import PostgresNIO

/// The shared store's schema and its history. Migrations run in one transaction under an advisory lock, so
/// processes starting together on a new database wait for the first to create it instead of racing.
///
/// The tables are SQLite's (`AppDatabase`), in PostgreSQL's types; times stay seconds since 1970 (`double
/// precision`), as SQLite keeps them, so both stores compare and order them alike.
enum PostgresSchema {
    /// Never edit a shipped migration: add the next one.
    static let migrations: [(name: String, sql: [String])] = [
        ("v1", [
            """
            CREATE TABLE http_response (
                key text PRIMARY KEY,
                source_id text NOT NULL,
                status integer NOT NULL,
                headers text NOT NULL,
                body bytea NOT NULL,
                stored_at double precision NOT NULL,
                expires_at double precision NOT NULL
            )
            """,
            "CREATE INDEX http_response_source ON http_response (source_id)",
            """
            CREATE TABLE source_snapshot (
                source_id text NOT NULL,
                fingerprint text NOT NULL,
                variant text NOT NULL,
                items bytea NOT NULL,
                saved_at double precision NOT NULL,
                PRIMARY KEY (source_id, fingerprint, variant)
            )
            """,
            """
            CREATE TABLE seen_item (
                source_id text NOT NULL,
                fingerprint text NOT NULL,
                item_id text NOT NULL,
                first_seen_at double precision NOT NULL,
                PRIMARY KEY (source_id, fingerprint, item_id)
            )
            """,
            """
            CREATE TABLE movies_query (
                seq bigserial,
                source_id text NOT NULL,
                fingerprint text NOT NULL,
                query_key text NOT NULL,
                query text NOT NULL,
                used_at double precision NOT NULL,
                PRIMARY KEY (source_id, fingerprint, query_key)
            )
            """,
            """
            CREATE TABLE sink_seen (
                sink_id text NOT NULL,
                source_id text NOT NULL,
                item_id text NOT NULL,
                first_seen_at double precision NOT NULL,
                PRIMARY KEY (sink_id, source_id, item_id)
            )
            """,
            """
            CREATE TABLE sink_delivery (
                seq bigserial PRIMARY KEY,
                delivery_id text NOT NULL UNIQUE,
                sink_id text NOT NULL,
                state text NOT NULL,
                items bytea NOT NULL,
                item_count integer NOT NULL,
                attempts integer NOT NULL DEFAULT 0,
                created_at double precision NOT NULL,
                not_before double precision,
                last_attempt_at double precision,
                last_error text,
                delivered_at double precision
            )
            """,
            "CREATE INDEX sink_delivery_sink_state ON sink_delivery (sink_id, state, seq)",
        ]),
        // The shared rate-limit budget: per host and credential hash, until when not to ask.
        ("v2-rate-limit", [
            "CREATE TABLE rate_limit (budget_key text PRIMARY KEY, until_at double precision NOT NULL)",
        ]),
        // The fleet (`aggregate worker`): the manifest's sources with when each is due and who holds it, who
        // registered the manifest, and the workers seen.
        ("v3-fleet", [
            """
            CREATE TABLE fleet_source (
                source_id text PRIMARY KEY,
                fingerprint text NOT NULL,
                interval_seconds double precision NOT NULL,
                due_at double precision NOT NULL,
                claimed_by text,
                claim_until double precision,
                failures integer NOT NULL DEFAULT 0,
                last_status text,
                last_finished_at double precision
            )
            """,
            "CREATE INDEX fleet_source_due ON fleet_source (due_at)",
            "CREATE INDEX fleet_source_claimed_by ON fleet_source (claimed_by) WHERE claimed_by IS NOT NULL",
            """
            CREATE TABLE fleet_manifest (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                generation bigint NOT NULL DEFAULT 1,
                registered_by text NOT NULL,
                registered_at double precision NOT NULL
            )
            """,
            """
            CREATE TABLE fleet_worker (
                worker_id text PRIMARY KEY,
                started_at double precision NOT NULL,
                seen_at double precision NOT NULL,
                manifest_differs boolean NOT NULL DEFAULT false
            )
            """,
        ]),
        // The latest report of each of the fleet's sources, as its worker stored it (`serve --no-worker`); the
        // version grows with every report stored, so a reader asks only for what changed.
        ("v4-fleet-report", [
            "CREATE SEQUENCE fleet_report_version",
            """
            CREATE TABLE fleet_report (
                source_id text PRIMARY KEY,
                version bigint NOT NULL,
                body text NOT NULL,
                stored_at double precision NOT NULL
            )
            """,
            "CREATE INDEX fleet_report_stored_at ON fleet_report (stored_at)",
        ]),
        // Large values (response bodies, last good copies, fleet reports) compressed with lz4 rather than pglz:
        // a 300-feed run cost the server 1.65 s of CPU with pglz, 1.1 s with lz4 (BENCHMARKS.md, "The fleet"). A
        // server without lz4 (before PostgreSQL 14, or built without it) keeps pglz.
        ("v5-lz4", [
            """
            DO $$ BEGIN
                EXECUTE 'ALTER TABLE http_response ALTER COLUMN body SET COMPRESSION lz4';
                EXECUTE 'ALTER TABLE source_snapshot ALTER COLUMN items SET COMPRESSION lz4';
                EXECUTE 'ALTER TABLE fleet_report ALTER COLUMN body SET COMPRESSION lz4';
            EXCEPTION WHEN OTHERS THEN NULL;
            END $$
            """,
        ]),
        ("v6-archive", PostgresArchiveSchema.statements),
    ]

    /// Applies the migrations the database lacks, on the leases' connection (`PostgresLeaseSession.run`).
    static func migrate(_ database: PostgresStoreDatabase) throws(SourceError) {
        try database.leases.run(in: database) { connection in
            try await connection.transaction { session in
                // One migrating process at a time, across every machine (released at commit).
                try await session.execute("SELECT pg_advisory_xact_lock(hashtextextended('aggregate.migrate', 0))")
                try await session.execute("""
                    CREATE TABLE IF NOT EXISTS aggregate_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                    """)
                let applied = Set(try await session.rows("SELECT name FROM aggregate_migration").map { try $0[0].decode(String.self) })
                for migration in migrations where !applied.contains(migration.name) {
                    for statement in migration.sql { try await session.execute(PostgresQuery(unsafeSQL: statement)) }
                    try await session.execute("INSERT INTO aggregate_migration (name) VALUES (\(migration.name))")
                }
            }
        }
    }

    /// The migrations applied, in order (`store info`).
    static func applied(_ database: PostgresStoreDatabase) throws(SourceError) -> [String] {
        try database.withSession { session in
            try await session.rows("SELECT name FROM aggregate_migration ORDER BY applied_at, name").map { try $0[0].decode(String.self) }
        }
    }
}
