import Domain
import Foundation
import GRDB
import ProviderTesting
import SQLiteStore
import Testing

@Suite("The archive knows a large batch archived whole by its content, and never skips a changed one")
struct ArchiveBatchTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func items(titled title: (Int) -> String) -> [Item] {
        (0..<1_500).map { Item(kind: .record, id: "r\($0)", title: title($0), fields: ["n": .int($0)]) }
    }

    private static func batches(in directory: ScratchDirectory.Folder) throws -> Int {
        try DatabaseQueue(path: directory.databaseURL.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM archive_batch") ?? 0
        }
    }

    @Test("the same batch again is one known digest; a changed item is written; pruning forgets the digests")
    func knownBatches() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let source = SourceIdentity.testing("log")
        let (afterTwice, changedTitle, afterChange, afterPrune, rewritten) = try await blocking {
            let database = try directory.open()
            let history = SQLiteSeenItemsRepository(database: database)
            let archive = SQLiteItemArchive(database: database)
            try history.markSeen([SeenBatch(source: source, items: Self.items { "row \($0)" })], at: Self.start)
            try history.markSeen([SeenBatch(source: source, items: Self.items { "row \($0)" })], at: Self.start.addingTimeInterval(60))
            let afterTwice = try Self.batches(in: directory)
            try history.markSeen([SeenBatch(source: source, items: Self.items { $0 == 7 ? "changed row" : "row \($0)" })],
                                 at: Self.start.addingTimeInterval(120))
            let changed = try archive.items(ArchiveQuery(text: SearchQuery("changed"))).items.map(\.item.id)
            let afterChange = try Self.batches(in: directory)
            _ = try archive.prune(retention: { _ in ArchiveRetention(days: 90, maxItemsPerSource: 1_000) }, now: Self.start)
            let afterPrune = try Self.batches(in: directory)
            try history.markSeen([SeenBatch(source: source, items: Self.items { $0 == 7 ? "changed row" : "row \($0)" })],
                                 at: Self.start.addingTimeInterval(180))
            return (afterTwice, changed, afterChange, afterPrune, try archive.stats().first?.items ?? 0)
        }
        #expect(afterTwice == 1, "the batch seen again is the same digest")
        #expect(changedTitle == ["r7"], "one changed item makes another digest, and its row is written")
        #expect(afterChange == 2)
        #expect(afterPrune == 0, "pruning forgets the source's digests")
        #expect(rewritten == 1_500, "a batch seen after pruning is archived whole again")
    }
}

extension ArchiveBatchTests {
    /// At 500,000 items the statistics make SQLite walk the date index instead of sorting a source's items
    /// (BENCHMARKS.md, "The item archive"); here, that pruning leaves them.
    @Test("pruning leaves the query planner's statistics of the archive")
    func statistics() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let (before, after) = try await blocking { () -> (Int, Int) in
            let database = try directory.open()
            try SQLiteSeenItemsRepository(database: database)
                .markSeen([SeenBatch(source: .testing("log"), items: Self.items { "row \($0)" })], at: Self.start)
            func analysed() throws -> Int {
                try DatabaseQueue(path: directory.databaseURL.path).read { db in
                    guard try db.tableExists("sqlite_stat1") else { return 0 }
                    return try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_stat1 WHERE tbl IN ('archive_item', 'archive_source')") ?? 0
                }
            }
            let before = try analysed()
            _ = try SQLiteItemArchive(database: database)
                .prune(retention: { _ in ArchiveRetention(days: 90, maxItemsPerSource: 10_000) }, now: Self.start)
            return (before, try analysed())
        }
        #expect(before == 0)
        #expect(after >= 3, "archive_item's indexes and archive_source's")
    }
}
