import Domain
import Foundation
import GRDB
import ProviderTesting
@testable import SQLiteStore
import Testing

@Suite("A large batch enters the archive staged, and every reader sees it written")
struct ArchiveStagingTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000.123_456_7)

    static func items(_ count: Int, title: (Int) -> String = { "row \($0)" }) -> [Item] {
        (0..<count).map {
            Item(kind: .entry, id: "r\($0)", title: title($0), subtitle: $0.isMultiple(of: 2) ? "even" : nil,
                 url: URL(string: "https://example.org/r/\($0)?q=\($0)"),
                 date: $0.isMultiple(of: 3) ? nil : start.addingTimeInterval(Double($0) / 7),
                 fields: ["n": .int($0), "tags": .array([.string("a"), .string("b")]), "text": .string("<p>word \($0)</p>")])
        }
    }

    /// Rows in `table`, read beside the store's own connections.
    private static func count(_ table: String, in directory: ScratchDirectory.Folder) throws -> Int {
        try DatabaseQueue(path: directory.databaseURL.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
        }
    }

    @Test("staged in rows of at most 4,096 items, written whole by the first read, every member exact")
    func stagedThenRead() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let items = Self.items(9_000)
        let (staged, written, archived, read, stagedAfter) = try await blocking {
            let database = try directory.open()
            try SQLiteSeenItemsRepository(database: database)
                .markSeen([SeenBatch(source: .testing("log"), items: items)], at: Self.start)
            let staged = try Self.count("archive_staged", in: directory)
            let written = try Self.count("archive_item", in: directory)
            let archive = SQLiteItemArchive(database: database)
            let read = try archive.items(withIDs: Array(1...9_000))
            return (staged, written, try Self.count("archive_item", in: directory), read,
                    try Self.count("archive_staged", in: directory))
        }
        #expect(staged == 3, "9,000 items in rows of 4,096")
        #expect(written == 0, "nothing is written on the run's path")
        #expect(archived == 9_000)
        #expect(stagedAfter == 0)
        let byID = Dictionary(uniqueKeysWithValues: read.map { ($0.item.id, $0) })
        #expect(byID.count == 9_000)
        for item in items {
            let archivedItem = try #require(byID[item.id])
            // Dates compare as the seconds since 1970 the store keeps (a `Date` made from them again may differ
            // from the original in its last bit).
            #expect(archivedItem.item.date?.timeIntervalSince1970 == item.date?.timeIntervalSince1970)
            var undated = archivedItem.item
            undated.date = item.date
            #expect(undated == item)
            #expect(archivedItem.firstSeenAt == Self.start)
        }
    }

    @Test("a source with staged rows stages its small batches too, so the newest content wins")
    func orderKept() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let (stagedSmall, titles, other) = try await blocking {
            let database = try directory.open()
            let history = SQLiteSeenItemsRepository(database: database)
            try history.markSeen([SeenBatch(source: .testing("log"), items: Self.items(2_000))], at: Self.start)
            try history.markSeen([SeenBatch(source: .testing("log"), items: Self.items(2) { "changed \($0)" })],
                                 at: Self.start.addingTimeInterval(60))
            // Another source's small batch is written at once.
            try history.markSeen([SeenBatch(source: .testing("other"), items: Self.items(3))], at: Self.start)
            let stagedSmall = try Self.count("archive_staged", in: directory)
            let other = try Self.count("archive_item", in: directory)
            let page = try SQLiteItemArchive(database: database).items(ArchiveQuery(text: SearchQuery("changed")))
            return (stagedSmall, page.items.map(\.item.title).sorted(), other)
        }
        #expect(stagedSmall == 2, "the large batch's row, then the small one's")
        #expect(other == 3)
        #expect(titles == ["changed 0", "changed 1"])
    }

    @Test("catching up from several threads at once writes each item once")
    func concurrentCatchUp() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let database = try directory.open()
        try await blocking {
            try SQLiteSeenItemsRepository(database: database)
                .markSeen([SeenBatch(source: .testing("log"), items: Self.items(20_000))], at: Self.start)
        }
        let archive = SQLiteItemArchive(database: database)
        let written = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<3 { group.addTask { try await blocking { try archive.catchUp() } } }
            return try await group.reduce(0, +)
        }
        #expect(written == 20_000)
        #expect(try Self.count("archive_item", in: directory) == 20_000)
        #expect(try await blocking { try archive.stats().map(\.items) } == [20_000])
    }

    @Test("a staged row gives back every value exactly; bytes cut short or of another version read as nothing")
    func rowCoding() throws {
        let item = Item(
            kind: .issue, id: "é-1", title: "Ünïcode \u{1F600} \"quoted\"\n", subtitle: "", url: URL(string: "https://example.org/a b?x=1"),
            date: Date(timeIntervalSince1970: -1.5),
            fields: ["big": .int(.min), "pi": .double(3.141_592_653_589_793), "no": .null, "yes": .bool(true), "off": .bool(false),
                     "nested": .object(["list": .array([.int(1), .string(""), .array([]), .object([:])])])])
        let bytes = StagedItems.encode([item, Self.items(1)[0]][...])
        let decoded = try #require(StagedItems.decode(Data(bytes)))
        #expect(decoded.count == 2)
        #expect(decoded[0].date?.timeIntervalSince1970 == -1.5)
        var undated = decoded[0]
        undated.date = item.date
        #expect(undated == item)
        #expect(StagedItems.decode(Data(bytes.dropLast())) == nil)
        #expect(StagedItems.decode(Data([2] + bytes.dropFirst())) == nil)
        #expect(StagedItems.decode(Data()) == nil)
    }
}
