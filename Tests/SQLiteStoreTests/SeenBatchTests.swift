import Domain
import Foundation
import GRDB
import ProviderTesting
import SQLiteStore
import Testing

@Suite("The history knows a large batch recorded whole by its digest, and never takes another batch for it")
struct SeenBatchTests {
    static let ids = (0..<2_000).map { "item-\($0)" }

    /// The digests stored, per source id.
    private static func digests(in directory: ScratchDirectory.Folder) throws -> [String: Int] {
        try DatabaseQueue(path: directory.databaseURL.path).read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT source_id, COUNT(*) FROM seen_batch JOIN history_source ON key = source_key GROUP BY source_id
                """) {
                counts[row[0]] = row[1]
            }
            return counts
        }
    }

    @Test("a batch read again is skipped; one id more, in another order, or a small batch is still recorded")
    func changedBatchesAreRecorded() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let outcome = try await blocking {
            let history = SQLiteSeenItemsRepository(database: try directory.open())
            let log = SourceIdentity.testing("log")
            try history.markSeen([SeenBatch(source: log, itemIDs: Self.ids)], at: Date())
            let once = try Self.digests(in: directory)
            try history.markSeen([SeenBatch(source: log, itemIDs: Self.ids)], at: Date())
            let again = try Self.digests(in: directory)
            // The same ids and one more, and the same ids reversed with another one in the middle.
            try history.markSeen([SeenBatch(source: log, itemIDs: Self.ids + ["new-1"])], at: Date())
            var reversed = Array(Self.ids.reversed())
            reversed.insert("new-2", at: 1_000)
            try history.markSeen([SeenBatch(source: log, itemIDs: reversed)], at: Date())
            try history.markSeen([SeenBatch(source: log, itemIDs: ["new-3"])], at: Date())
            let after = try Self.digests(in: directory)
            let seen = try history.recordSeen(by: log, itemIDs: Self.ids + ["new-1", "new-2", "new-3", "new-4"], at: Date())
            return (once, again, after, seen)
        }
        #expect(outcome.0 == ["log": 1])
        #expect(outcome.1 == ["log": 1], "a batch recorded whole before adds nothing")
        #expect(outcome.2 == ["log": 3], "each changed batch has a digest of its own; a small batch none")
        #expect(outcome.3 == SeenItems(unseen: ["new-4"], isFirstRun: false), "every id of every changed batch was recorded")
    }

    @Test("clearing a source's history forgets its digests: the same batch read again is recorded again")
    func clearForgetsDigests() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let outcome = try await blocking {
            let database = try directory.open()
            let history = SQLiteSeenItemsRepository(database: database)
            // "log" gets the highest key, so the key it gets after the clear is the same number (SQLite reuses it).
            try history.markSeen([SeenBatch(source: .testing("other"), itemIDs: Self.ids),
                                  SeenBatch(source: .testing("log"), itemIDs: Self.ids)], at: Date())
            let removed = try SQLiteStoreMaintenance(database: database).clearHistory(sourceID: "log").historyItems
            let cleared = try Self.digests(in: directory)
            let total = try DatabaseQueue(path: directory.databaseURL.path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM seen_batch") }
            try history.markSeen([SeenBatch(source: .testing("log"), itemIDs: Self.ids)], at: Date())
            return (removed, cleared, total, try history.recordSeen(by: .testing("log"), itemIDs: Self.ids + ["z"], at: Date()),
                    try history.recordSeen(by: .testing("other"), itemIDs: Self.ids, at: Date()))
        }
        #expect(outcome.0 == Self.ids.count)
        #expect(outcome.1 == ["other": 1])
        #expect(outcome.2 == 1, "the cleared source's digests are gone, not left under its key")
        #expect(outcome.3 == SeenItems(unseen: ["z"], isFirstRun: false), "the batch was inserted again after the clear")
        #expect(outcome.4 == SeenItems(unseen: [], isFirstRun: false))
    }
}
