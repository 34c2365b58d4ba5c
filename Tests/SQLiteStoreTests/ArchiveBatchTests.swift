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
