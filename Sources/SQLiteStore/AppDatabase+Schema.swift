import Domain
import GRDB

extension AppDatabase {
    /// The schema's history, one merged migration (GRDB's `merging:`): a new store gets the current schema in
    /// one step, and a store of an earlier version gets the steps it lacks, in order (what the steps one by one
    /// cost a first run: BENCHMARKS.md, "Cold start: a new store in one step").
    /// Never edit a shipped step. Add the next one as a migration of its own after this one: a merge deletes the
    /// merged identifiers from the store, and an aggregate that still knows them would then run them again.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(
            "v4-history-source-keys", merging: ["v1", "v2-source-identity", "v3-sinks"]
        ) { db, applied in
            guard applied.contains("v1") else { return try db.execute(sql: Schema.current) }
            if !applied.contains("v2-source-identity") { try db.execute(sql: Schema.v2SourceIdentity) }
            if !applied.contains("v3-sinks") { try db.execute(sql: Schema.v3Sinks) }
            try db.execute(sql: Schema.v4HistorySourceKeys)
        }
        migrator.registerMigration("v5-seen-batches") { db in try db.execute(sql: Schema.v5SeenBatches) }
        migrator.registerMigration("v6-archive") { db in try db.execute(sql: Schema.v6Archive) }
        migrator.registerMigration("v7-archive-staging") { db in try db.execute(sql: Schema.v7ArchiveStaging) }
        return migrator
    }

    /// Gives `source` the rows of `table` stored for its id before fingerprints existed (migration
    /// "v2-source-identity"): the first run of that id after the upgrade takes them, on the assumption that
    /// its options did not change across the upgrade. Later runs find none left to take. (The item history
    /// has its own: `HistorySources.adoptLegacy`.)
    static func adoptLegacy(_ table: String, for source: SourceIdentity, in db: Database) throws {
        try db.execute(
            sql: "UPDATE OR IGNORE \(table) SET fingerprint = ? WHERE source_id = ? AND fingerprint = ''",
            arguments: [source.fingerprint, source.id])
        try db.execute(sql: "DELETE FROM \(table) WHERE source_id = ? AND fingerprint = ''", arguments: [source.id])
    }
}
