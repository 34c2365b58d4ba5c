import Domain
import Foundation
import GRDB
@testable import SQLiteStore
import ProviderTesting
import Testing

@Suite("The item history's migrations (v4: per-source keys; v5: batch digests) keep every source's history")
struct HistoryMigrationTests {
    /// The migrations as releases before the merged one registered them, one step each: `steps` of them.
    static func releasedMigrator(upTo steps: Int) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        let released = [("v1", Schema.v1), ("v2-source-identity", Schema.v2SourceIdentity), ("v3-sinks", Schema.v3Sinks),
                        ("v4-history-source-keys", Schema.v4HistorySourceKeys)]
        for (identifier, sql) in released.prefix(steps) {
            migrator.registerMigration(identifier) { db in try db.execute(sql: sql) }
        }
        return migrator
    }

    /// A store as the last release left it (migrations up to v3), with history rows written in its schema.
    private static func makeV3Store(in directory: ScratchDirectory.Folder, rows: [(String, String, String)]) throws {
        let queue = try DatabaseQueue(path: directory.databaseURL.path)
        try Self.releasedMigrator(upTo: 3).migrate(queue)
        try queue.write { db in
            for (source, fingerprint, item) in rows {
                try db.execute(sql: "INSERT INTO seen_item (source_id, fingerprint, item_id, first_seen_at) VALUES (?, ?, ?, 0)",
                               arguments: [source, fingerprint, item])
            }
        }
    }

    @Test("seen ids stay seen per identity; history from before fingerprints is adopted whole or merged; counts and clears agree")
    func upgradesV3History() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let rows = [("a", "fp-a", "1"), ("a", "fp-a", "2"), ("a", "other-options", "9"),
                    ("b", "", "x"), ("c", "", "k"), ("c", "fp-c", "m")]
        let outcome = try await blocking {
            try Self.makeV3Store(in: directory, rows: rows)
            let database = try directory.open()
            let history = SQLiteSeenItemsRepository(database: database)
            let maintenance = SQLiteStoreMaintenance(database: database)
            let a = try history.recordSeen(by: .testing("a"), itemIDs: ["1", "2", "3"], at: Date())
            let aOther = try history.recordSeen(by: SourceIdentity(id: "a", fingerprint: "other-options"), itemIDs: ["9", "1"], at: Date())
            let b = try history.recordSeen(by: .testing("b"), itemIDs: ["x", "y"], at: Date())
            let c = try history.recordSeen(by: .testing("c"), itemIDs: ["k", "m", "n"], at: Date())
            let counts = try maintenance.stats(sourceID: nil, now: Date()).map { ($0.sourceID, $0.historyItems) }
            let removed = try maintenance.clearHistory(sourceID: "a")
            let aAfterClear = try history.recordSeen(by: .testing("a"), itemIDs: ["1"], at: Date())
            let bAgain = try history.recordSeen(by: .testing("b"), itemIDs: ["x", "y"], at: Date())
            return (a, aOther, b, c, counts, removed.historyItems, aAfterClear, bAgain, database.schemaVersion().applied)
        }
        #expect(outcome.0 == SeenItems(unseen: ["3"], isFirstRun: false))
        #expect(outcome.1 == SeenItems(unseen: ["1"], isFirstRun: false))
        // "b" had only history from before fingerprints: it takes it over.
        #expect(outcome.2 == SeenItems(unseen: ["y"], isFirstRun: false))
        // "c" had both: they are merged.
        #expect(outcome.3 == SeenItems(unseen: ["n"], isFirstRun: false))
        #expect(outcome.4.map(\.0) == ["a", "b", "c"])
        #expect(outcome.4.map(\.1) == [5, 2, 3])
        #expect(outcome.5 == 5)
        #expect(outcome.6 == SeenItems(unseen: ["1"], isFirstRun: true))
        #expect(outcome.7 == SeenItems(unseen: [], isFirstRun: false))
        #expect(outcome.8 == "v7-archive-staging")
    }

    @Test("a v3 store without history upgrades to an empty history that works")
    func upgradesEmptyHistory() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let (first, second) = try await blocking {
            try Self.makeV3Store(in: directory, rows: [])
            let history = SQLiteSeenItemsRepository(database: try directory.open())
            return (try history.recordSeen(by: .testing("feed"), itemIDs: ["a"], at: Date()),
                    try history.recordSeen(by: .testing("feed"), itemIDs: ["a", "b"], at: Date()))
        }
        #expect(first == SeenItems(unseen: ["a"], isFirstRun: true))
        #expect(second == SeenItems(unseen: ["b"], isFirstRun: false))
    }

    @Test("a v4 store gains batch digests (v5) with every history row kept, and records and answers as before")
    func upgradesV4History() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let ids = (0..<3_000).map { "row-\($0)" }
        let outcome = try await blocking {
            let queue = try DatabaseQueue(path: directory.databaseURL.path)
            try Self.releasedMigrator(upTo: 4).migrate(queue)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO history_source (key, source_id, fingerprint) VALUES (1, 'a', 'fp-a'), (2, 'b', 'fp-b')")
                for id in ids { try db.execute(sql: "INSERT INTO seen_item VALUES (1, ?, 0)", arguments: [id]) }
                try db.execute(sql: "INSERT INTO seen_item VALUES (2, 'x', 0)")
            }
            try queue.close()
            let database = try directory.open()
            let history = SQLiteSeenItemsRepository(database: database)
            let counts = try SQLiteStoreMaintenance(database: database).stats(sourceID: nil, now: Date()).map { ($0.sourceID, $0.historyItems) }
            try history.markSeen([SeenBatch(source: .testing("a"), itemIDs: ids + ["row-new"])], at: Date())
            let digests = try DatabaseQueue(path: directory.databaseURL.path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM seen_batch") }
            return (database.schemaVersion().applied, counts, digests,
                    try history.recordSeen(by: .testing("a"), itemIDs: ids + ["row-new", "row-newer"], at: Date()),
                    try history.recordSeen(by: .testing("b"), itemIDs: ["x", "y"], at: Date()))
        }
        #expect(outcome.0 == "v7-archive-staging")
        #expect(outcome.1.map(\.0) == ["a", "b"])
        #expect(outcome.1.map(\.1) == [ids.count, 1], "every row carried over")
        #expect(outcome.2 == 1)
        #expect(outcome.3 == SeenItems(unseen: ["row-newer"], isFirstRun: false))
        #expect(outcome.4 == SeenItems(unseen: ["y"], isFirstRun: false))
    }

    /// Every table's columns (name, type, not null, default, key position) and every index's columns, in order.
    private static func shape(of path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'
                ORDER BY name
                """)
            var shape: [String] = []
            for table in tables {
                for row in try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", arguments: [table]) {
                    shape.append("\(table).\(row[0] as String) \(row[1] as String) notnull=\(row[2] as Int) default=\(row[3] as String? ?? "-") pk=\(row[4] as Int)")
                }
                for index in try Row.fetchAll(db, sql: "SELECT name, \"unique\", origin FROM pragma_index_list(?) ORDER BY name", arguments: [table]) {
                    let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index[0] as String])
                    shape.append("\(table) index unique=\(index[1] as Int) origin=\(index[2] as String) (\(columns.joined(separator: ", ")))")
                }
                let withoutRowID = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table])?
                    .contains("WITHOUT ROWID") ?? false
                shape.append("\(table) withoutRowID=\(withoutRowID)")
            }
            return shape
        }
    }

    @Test("a new store is made in one step with the same tables, columns and indexes as a store of every release brought up step by step")
    func newStoreMatchesUpgradedStores() async throws {
        let (fresh, upgraded, versions) = try await blocking {
            let new = try ScratchDirectory.Folder("aggregate-store")
            let database = try new.open()
            var upgraded: [[String]] = []
            var versions: [String?] = [database.schemaVersion().applied]
            for steps in 1...4 {
                let old = try ScratchDirectory.Folder("aggregate-store")
                try Self.releasedMigrator(upTo: steps).migrate(try DatabaseQueue(path: old.databaseURL.path))
                let opened = try old.open()
                versions.append(opened.schemaVersion().applied)
                upgraded.append(try Self.shape(of: old.databaseURL.path))
            }
            return (try Self.shape(of: new.databaseURL.path), upgraded, versions)
        }
        #expect(fresh.count > 40, "the shape lists every column: \(fresh)")
        for (index, shape) in upgraded.enumerated() {
            #expect(shape == fresh, "a store of release step \(index + 1), upgraded, differs from a new one")
        }
        #expect(versions.allSatisfy { $0 == "v7-archive-staging" })
    }
}
