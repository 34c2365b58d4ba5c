import Domain
import Foundation
import GRDB
@testable import Persistence
import ProviderTesting
import Testing

@Suite("The item history's move to per-source keys (migration v4) keeps every source's history")
struct HistoryMigrationTests {
    /// A store as the last release left it (migrations up to v3), with history rows written in its schema.
    private static func makeV3Store(in directory: TemporaryDirectory, rows: [(String, String, String)]) throws {
        let queue = try DatabaseQueue(path: directory.databaseURL.path)
        try AppDatabase.migrator.migrate(queue, upTo: "v3-sinks")
        try queue.write { db in
            for (source, fingerprint, item) in rows {
                try db.execute(sql: "INSERT INTO seen_item (source_id, fingerprint, item_id, first_seen_at) VALUES (?, ?, ?, 0)",
                               arguments: [source, fingerprint, item])
            }
        }
    }

    @Test("seen ids stay seen per identity; history from before fingerprints is adopted whole or merged; counts and clears agree")
    func upgradesV3History() async throws {
        let directory = try TemporaryDirectory()
        let rows = [("a", "fp-a", "1"), ("a", "fp-a", "2"), ("a", "other-options", "9"),
                    ("b", "", "x"), ("c", "", "k"), ("c", "fp-c", "m")]
        let outcome = try await blocking {
            try Self.makeV3Store(in: directory, rows: rows)
            let database = try directory.open()
            let history = SQLiteSeenItemsRepository(database: database)
            let maintenance = StoreMaintenance(database: database)
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
        #expect(outcome.8 == "v4-history-source-keys")
    }

    @Test("a v3 store without history upgrades to an empty history that works")
    func upgradesEmptyHistory() async throws {
        let directory = try TemporaryDirectory()
        let (first, second) = try await blocking {
            try Self.makeV3Store(in: directory, rows: [])
            let history = SQLiteSeenItemsRepository(database: try directory.open())
            return (try history.recordSeen(by: .testing("feed"), itemIDs: ["a"], at: Date()),
                    try history.recordSeen(by: .testing("feed"), itemIDs: ["a", "b"], at: Date()))
        }
        #expect(first == SeenItems(unseen: ["a"], isFirstRun: true))
        #expect(second == SeenItems(unseen: ["b"], isFirstRun: false))
    }
}
