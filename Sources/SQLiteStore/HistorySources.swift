import Domain
import GRDB

/// The item history's keys: one small integer per source identity (`history_source`), which every row of
/// `seen_item` carries instead of the source id and its fingerprint.
enum HistorySources {
    /// `source`'s key, after adopting the history its id kept from before fingerprints; nil when it has none.
    static func key(of source: SourceIdentity, in db: Database) throws -> Int64? {
        try adoptLegacy(for: source, in: db)
        return try lookUp(source, in: db)
    }

    /// `source`'s key, made when it has none.
    static func makeKey(of source: SourceIdentity, in db: Database) throws -> Int64 {
        try key(of: source, in: db) ?? insertKey(of: source, in: db)
    }

    /// A new key for `source`, which `key(of:in:)` just found without one.
    static func insertKey(of source: SourceIdentity, in db: Database) throws -> Int64 {
        try db.cachedStatement(sql: "INSERT INTO history_source (source_id, fingerprint) VALUES (?, ?)")
            .execute(arguments: [source.id, source.fingerprint])
        return db.lastInsertedRowID
    }

    /// The history stored for `source.id` before fingerprints existed (an empty fingerprint, migration
    /// "v2-source-identity") becomes `source`'s: the first run of that id after the upgrade takes it, on the
    /// assumption that its options did not change across the upgrade. Later runs find none left to take.
    private static func adoptLegacy(for source: SourceIdentity, in db: Database) throws {
        let legacy = SourceIdentity(id: source.id, fingerprint: "")
        guard source.fingerprint != "", let legacyKey = try lookUp(legacy, in: db) else { return }
        guard let key = try lookUp(source, in: db) else {
            // The usual case: the whole history changes hands at once.
            try db.execute(sql: "UPDATE history_source SET fingerprint = ? WHERE key = ?",
                           arguments: [source.fingerprint, legacyKey])
            return
        }
        // Both have rows: an id in both keeps the time `source` first saw it.
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO seen_item (source_key, item_id, first_seen_at)
                SELECT ?, item_id, first_seen_at FROM seen_item WHERE source_key = ?
                """,
            arguments: [key, legacyKey])
        try forget(keys: [legacyKey], in: db)
    }

    /// Cached statements: a run of many sources looks up (and makes) a key for each, two or three a source.
    private static func lookUp(_ source: SourceIdentity, in db: Database) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT key FROM history_source WHERE source_id = ? AND fingerprint = ?"),
            arguments: [source.id, source.fingerprint])
    }

    /// Removes the history of the sources with `keys`, with the digests of their batches (`SeenBatches`: a
    /// batch recorded again must be inserted again); returns how many items it held.
    @discardableResult
    static func forget(keys: [Int64], in db: Database) throws -> Int {
        var removed = 0
        for key in keys {
            try db.execute(sql: "DELETE FROM seen_item WHERE source_key = ?", arguments: [key])
            removed += db.changesCount
            try db.execute(sql: "DELETE FROM seen_batch WHERE source_key = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM history_source WHERE key = ?", arguments: [key])
        }
        return removed
    }
}
