/// The store's SQL: the current schema, which a new store is made with, and the steps that brought stores of
/// earlier versions to it (`AppDatabase.migrator` runs the ones a store lacks). A test checks that a store
/// brought up step by step has the same tables, columns and indexes as a new one.
enum Schema {
    /// What `v1` … `v4-history-source-keys` leave, written at once.
    static let current = """
        CREATE TABLE http_response (
            key TEXT PRIMARY KEY NOT NULL,
            source_id TEXT NOT NULL,
            status INTEGER NOT NULL,
            headers TEXT NOT NULL,
            body BLOB NOT NULL,
            stored_at REAL NOT NULL,
            expires_at REAL NOT NULL
        );
        CREATE INDEX http_response_source ON http_response(source_id);
        CREATE TABLE source_snapshot (
            source_id TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            variant TEXT NOT NULL,
            items BLOB NOT NULL,
            saved_at REAL NOT NULL,
            PRIMARY KEY (source_id, fingerprint, variant)
        );
        CREATE TABLE movies_query (
            source_id TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            query_key TEXT NOT NULL,
            query TEXT NOT NULL,
            used_at REAL NOT NULL,
            PRIMARY KEY (source_id, fingerprint, query_key)
        );
        CREATE TABLE sink_seen (
            sink_id TEXT NOT NULL,
            source_id TEXT NOT NULL,
            item_id TEXT NOT NULL,
            first_seen_at REAL NOT NULL,
            PRIMARY KEY (sink_id, source_id, item_id)
        ) WITHOUT ROWID;
        CREATE TABLE sink_delivery (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            delivery_id TEXT NOT NULL UNIQUE,
            sink_id TEXT NOT NULL,
            state TEXT NOT NULL,
            items BLOB NOT NULL,
            item_count INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            not_before REAL,
            last_attempt_at REAL,
            last_error TEXT,
            delivered_at REAL
        );
        CREATE INDEX sink_delivery_sink_state ON sink_delivery(sink_id, state, seq);
        CREATE TABLE history_source (
            key INTEGER PRIMARY KEY,
            source_id TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            UNIQUE (source_id, fingerprint)
        );
        CREATE TABLE seen_item (
            source_key INTEGER NOT NULL,
            item_id TEXT NOT NULL,
            first_seen_at REAL NOT NULL,
            PRIMARY KEY (source_key, item_id)
        ) WITHOUT ROWID;
        """

    /// The first schema (response cache, last good copies, item history, recent queries).
    static let v1 = """
        CREATE TABLE http_response (
            key TEXT PRIMARY KEY NOT NULL,
            source_id TEXT NOT NULL,
            status INTEGER NOT NULL,
            headers TEXT NOT NULL,
            body BLOB NOT NULL,
            stored_at REAL NOT NULL,
            expires_at REAL NOT NULL
        );
        CREATE INDEX http_response_source ON http_response(source_id);
        CREATE TABLE source_snapshot (
            source_id TEXT NOT NULL,
            variant TEXT NOT NULL,
            items BLOB NOT NULL,
            saved_at REAL NOT NULL,
            PRIMARY KEY (source_id, variant)
        );
        CREATE TABLE seen_item (
            source_id TEXT NOT NULL,
            item_id TEXT NOT NULL,
            first_seen_at REAL NOT NULL,
            PRIMARY KEY (source_id, item_id)
        ) WITHOUT ROWID;
        CREATE TABLE movies_query (
            source_id TEXT NOT NULL,
            query_key TEXT NOT NULL,
            query TEXT NOT NULL,
            used_at REAL NOT NULL,
            PRIMARY KEY (source_id, query_key)
        );
        """

    /// Stored data belongs to a source identity (id + fingerprint of what it fetches), not to an id alone.
    /// Last good copies saved without a fingerprint cannot be told apart, so none is kept (a copy served for
    /// the wrong options would be wrong data). History and recent queries are carried over with an empty
    /// fingerprint: the first run of that source id after the upgrade adopts them (see `adoptLegacy`).
    static let v2SourceIdentity = """
        DROP TABLE source_snapshot;
        CREATE TABLE source_snapshot (
            source_id TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            variant TEXT NOT NULL,
            items BLOB NOT NULL,
            saved_at REAL NOT NULL,
            PRIMARY KEY (source_id, fingerprint, variant)
        );
        CREATE TABLE seen_item_v2 (
            source_id TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            item_id TEXT NOT NULL,
            first_seen_at REAL NOT NULL,
            PRIMARY KEY (source_id, fingerprint, item_id)
        ) WITHOUT ROWID;
        INSERT INTO seen_item_v2 SELECT source_id, '', item_id, first_seen_at FROM seen_item;
        DROP TABLE seen_item;
        ALTER TABLE seen_item_v2 RENAME TO seen_item;
        CREATE TABLE movies_query_v2 (
            source_id TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            query_key TEXT NOT NULL,
            query TEXT NOT NULL,
            used_at REAL NOT NULL,
            PRIMARY KEY (source_id, fingerprint, query_key)
        );
        INSERT INTO movies_query_v2 SELECT source_id, '', query_key, query, used_at FROM movies_query;
        DROP TABLE movies_query;
        ALTER TABLE movies_query_v2 RENAME TO movies_query;
        """

    /// Delivery sinks: what each sink has seen (its own history, apart from the sources') and the outbox of
    /// deliveries. `seq` orders deliveries oldest first; `items` is the JSON array sent, kept until delivered.
    static let v3Sinks = """
        CREATE TABLE sink_seen (
            sink_id TEXT NOT NULL,
            source_id TEXT NOT NULL,
            item_id TEXT NOT NULL,
            first_seen_at REAL NOT NULL,
            PRIMARY KEY (sink_id, source_id, item_id)
        ) WITHOUT ROWID;
        CREATE TABLE sink_delivery (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            delivery_id TEXT NOT NULL UNIQUE,
            sink_id TEXT NOT NULL,
            state TEXT NOT NULL,
            items BLOB NOT NULL,
            item_count INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            not_before REAL,
            last_attempt_at REAL,
            last_error TEXT,
            delivered_at REAL
        );
        CREATE INDEX sink_delivery_sink_state ON sink_delivery(sink_id, state, seq);
        """

    /// The item history keyed by a small integer per source identity (`history_source`) instead of repeating
    /// the source id and its 32-character fingerprint in every row, so rows and B-tree stay small (what it saves:
    /// BENCHMARKS.md, "The item history").
    /// History carried over without a fingerprint (v2) keeps it empty here, and is adopted as before.
    static let v4HistorySourceKeys = """
        CREATE TABLE history_source (
            key INTEGER PRIMARY KEY,
            source_id TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            UNIQUE (source_id, fingerprint)
        );
        INSERT INTO history_source (source_id, fingerprint)
            SELECT DISTINCT source_id, fingerprint FROM seen_item ORDER BY source_id, fingerprint;
        CREATE TABLE seen_item_v4 (
            source_key INTEGER NOT NULL,
            item_id TEXT NOT NULL,
            first_seen_at REAL NOT NULL,
            PRIMARY KEY (source_key, item_id)
        ) WITHOUT ROWID;
        INSERT INTO seen_item_v4
            SELECT history_source.key, seen_item.item_id, seen_item.first_seen_at
            FROM seen_item JOIN history_source USING (source_id, fingerprint);
        DROP TABLE seen_item;
        ALTER TABLE seen_item_v4 RENAME TO seen_item;
        """

    /// The digests of large batches of item ids a source recorded whole (`SeenBatches`): a batch recorded again
    /// (the same file or answer read again) is known by its digest instead of by a B-tree lookup of every id.
    /// A row says that every id of its batch is in `seen_item` under `source_key`; it goes when they may not be
    /// (`HistorySources.forget`). Added to every store, new or old: `current` stays what v4 left.
    static let v5SeenBatches = """
        CREATE TABLE seen_batch (
            source_key INTEGER NOT NULL,
            digest BLOB NOT NULL,
            PRIMARY KEY (source_key, digest)
        ) WITHOUT ROWID;
        """
}
