import Domain
import Foundation
import ProviderTesting
import Testing

/// Run against both stores: the same answers from SQLite's FTS5 and PostgreSQL's tsvector.
@Suite("The item archive: written with the history, searched, paged, marked and pruned")
struct ArchiveContractTests {
    static let day: TimeInterval = 86_400
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func entry(_ id: String, _ title: String, summary: String = "", date: Date? = nil) -> Item {
        Item(kind: .entry, id: id, title: title, url: URL(string: "https://example.org/\(id)"), date: date,
             fields: ["summary": .string(summary), "tags": ["news"]])
    }

    @Test("every item recorded in the history is in the archive with its fields, first and last seen", arguments: StoreKind.available)
    func writtenWithHistory(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let (page, stats) = try await blocking {
            let history = store.history
            let archive = store.archive
            _ = try history.recordSeen(by: .testing("news"), items: [Self.entry("1", "Swift on the server")], at: Self.start)
            try history.markSeen([SeenBatch(source: .testing("news"), items: [
                Self.entry("1", "Swift on the server, updated"), Self.entry("2", "Rust and <b>WebAssembly</b>", summary: "<p>wasm &amp; more</p>"),
            ])], at: Self.start.addingTimeInterval(60))
            return (try archive.items(ArchiveQuery(order: .oldest)), try archive.stats())
        }
        #expect(page.items.map(\.item.id) == ["1", "2"])
        let first = try #require(page.items.first)
        #expect(first.item.title == "Swift on the server, updated", "an item seen again keeps its latest content")
        #expect(first.firstSeenAt == Self.start && first.lastSeenAt == Self.start.addingTimeInterval(60))
        #expect(first.item.fields["tags"] == ["news"] && first.item.url == URL(string: "https://example.org/1"))
        #expect(stats == [ArchiveStats(sourceID: "news", items: 2, unread: 2, starred: 0, oldestFirstSeen: Self.start,
                                       newestFirstSeen: Self.start.addingTimeInterval(60))])
    }

    @Test("full-text search: stems, phrases, prefixes, OR, exclusions, markup ignored, title ranked first, snippets marked", arguments: StoreKind.available)
    func search(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let results = try await blocking { () -> [String: [String]] in
            let history = store.history
            try history.markSeen([SeenBatch(source: .testing("news"), items: [
                Self.entry("parse", "Parsing feeds quickly"),
                Self.entry("body", "Weekly notes", summary: "<p>We <em>parse</em> RSS &amp; Atom on the server side</p>"),
                Self.entry("wasm", "WebAssembly plugins", summary: "sandboxed wasm modules"),
                Self.entry("ios", "Swift on iOS"),
                Self.entry("server", "Swift server side"),
            ])], at: Self.start)
            let archive = store.archive
            var results: [String: [String]] = [:]
            for text in ["parse", "\"server side\"", "webassem*", "wasm OR ios", "swift -ios", "em", "nothing-here"] {
                results[text] = try archive.items(ArchiveQuery(text: SearchQuery(text))).items.map(\.item.id)
            }
            let snippet = try archive.items(ArchiveQuery(text: SearchQuery("atom"))).items.first?.snippet ?? ""
            results["snippet"] = [snippet]
            return results
        }
        #expect(results["parse"] == ["parse", "body"], "a title match ranks above a body match; parse finds parsing")
        #expect(results["\"server side\""]?.sorted() == ["body", "server"])
        #expect(results["webassem*"] == ["wasm"])
        #expect(results["wasm OR ios"]?.sorted() == ["ios", "wasm"])
        #expect(results["swift -ios"] == ["server"])
        #expect(results["em"] == [], "markup is not indexed")
        #expect(results["nothing-here"] == [])
        #expect(results["snippet"]?.first?.contains("\u{2}Atom\u{3}") == true, "\(results["snippet"] ?? [])")
    }

    @Test("pages by cursor cover every match once, newest first, with filters by source, kind and date", arguments: StoreKind.available)
    func paging(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let (pages, filtered, sinceCount) = try await blocking { () -> ([[String]], [String], Int) in
            let history = store.history
            let same = Self.start
            // Equal dates: the archive id breaks the tie, so no item is skipped or repeated across pages.
            try history.markSeen([
                SeenBatch(source: .testing("a"), items: (0..<25).map { Self.entry("a\($0)", "common \($0)", date: $0 < 10 ? same : same.addingTimeInterval(Double($0))) }),
                SeenBatch(source: .testing("b"), items: [Item(kind: .record, id: "b0", title: "common record")]),
            ], at: Self.start)
            let archive = store.archive
            var pages: [[String]] = []
            var cursor: ArchiveCursor?
            repeat {
                let page = try archive.items(ArchiveQuery(text: SearchQuery("common"), order: .newest, limit: 7, after: cursor))
                pages.append(page.items.map(\.item.id))
                cursor = page.next
            } while cursor != nil
            let filtered = try archive.items(ArchiveQuery(sourceIDs: ["b"], kinds: [.record])).items.map(\.item.id)
            let since = try archive.items(ArchiveQuery(sourceIDs: ["a"], since: same.addingTimeInterval(20), limit: 100)).items.count
            return (pages, filtered, since)
        }
        let all = pages.flatMap { $0 }
        #expect(all.count == 26 && Set(all).count == 26, "\(pages)")
        #expect(pages.count == 4)
        #expect(all.first == "a24")
        #expect(filtered == ["b0"])
        #expect(sinceCount == 4)
    }

    @Test("pruning keeps each source's retention, starred items stay, and ids are never reused", arguments: StoreKind.available)
    func prune(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let (removed, left, newID, maxBefore) = try await blocking { () -> (Int, [String: Int], Int64, Int64) in
            let history = store.history
            try history.markSeen([SeenBatch(source: .testing("old"), items: (0..<5).map { Self.entry("o\($0)", "old \($0)") })],
                                 at: Self.start.addingTimeInterval(-40 * Self.day))
            try history.markSeen([SeenBatch(source: .testing("big"), items: (0..<30).map { Self.entry("b\($0)", "big \($0)") })],
                                 at: Self.start)
            let archive = store.archive
            let maxBefore = try archive.items(ArchiveQuery(order: .newest, limit: 1)).items[0].archiveID
            let removed = try archive.prune(retention: { id in
                id == "old" ? ArchiveRetention(days: 30, maxItemsPerSource: 100) : ArchiveRetention(days: 90, maxItemsPerSource: 10)
            }, now: Self.start)
            var left: [String: Int] = [:]
            for stats in try archive.stats() { left[stats.sourceID] = stats.items }
            _ = try history.recordSeen(by: .testing("big"), items: [Self.entry("new", "new")], at: Self.start)
            let newID = try archive.items(ArchiveQuery(text: SearchQuery("new"))).items[0].archiveID
            return (removed, left, newID, maxBefore)
        }
        #expect(removed == 25)
        #expect(left == ["big": 10])
        #expect(newID > maxBefore)
    }

    @Test("reader state: read and starred set and cleared by id, mark-all-read by query, counted once; by-id reads keep order", arguments: StoreKind.available)
    func readerState(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let result = try await blocking { () -> (Int, Int, Int, Int, [String], [ArchiveStats], [String], [String]) in
            let history = store.history
            try history.markSeen([SeenBatch(source: .testing("a"), items: (0..<4).map { Self.entry("a\($0)", "a \($0)") }),
                                  SeenBatch(source: .testing("b"), items: (0..<3).map { Self.entry("b\($0)", "b \($0)") })],
                                 at: Self.start)
            let archive = store.archive
            let ids = try archive.items(ArchiveQuery(order: .archiveID, limit: 100)).items.map(\.archiveID)
            let read = try archive.setState(of: [ids[0], ids[1]], read: true, starred: nil, at: Self.start)
            let again = try archive.setState(of: [ids[0], ids[1]], read: true, starred: nil, at: Self.start)
            let starred = try archive.setState(of: [ids[2], ids[0]], read: nil, starred: true, at: Self.start)
            let allOfA = try archive.markAllRead(ArchiveQuery(sourceIDs: ["a"], limit: 1), at: Self.start)
            _ = try archive.setState(of: [ids[0]], read: false, starred: false, at: Self.start)
            let byID = try archive.items(withIDs: [ids[5], 999_999, ids[0]]).map(\.item.id)
            let unreadIDs = try archive.items(ArchiveQuery(read: false, order: .archiveID)).items.map(\.item.id)
            let starredIDs = try archive.items(ArchiveQuery(starred: true)).items.map(\.item.id)
            return (read, again, starred, allOfA, byID, try archive.stats(), unreadIDs, starredIDs)
        }
        #expect(result.0 == 2 && result.1 == 0, "setting a state already set changes nothing")
        #expect(result.2 == 2)
        #expect(result.3 == 2, "mark-all-read counts only the unread items it marked, whatever the query's limit")
        #expect(result.4 == ["b1", "a0"])
        #expect(result.5.map(\.unread) == [1, 3] && result.5.map(\.starred) == [1, 0])
        #expect(result.6 == ["a0", "b0", "b1", "b2"])
        #expect(result.7 == ["a2"])
    }
}

extension ArchiveContractTests {
    @Test("a source's items by item id keep the order asked for; a newer identity's row wins; other sources and missing ids are left out", arguments: StoreKind.available)
    func itemsOfSource(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let (ordered, renamed) = try await blocking { () -> ([String], [String]) in
            let history = store.history
            try history.markSeen([SeenBatch(source: .testing("a"), items: (0..<3).map { Self.entry("\($0)", "old a \($0)") }),
                                  SeenBatch(source: .testing("b"), items: [Self.entry("9", "b 9")])], at: Self.start)
            // The same source id under a new identity (its options changed): its rows are the ones shown.
            let changed = SourceIdentity(id: "a", fingerprint: "changed")
            _ = try history.recordSeen(by: changed, items: [Self.entry("1", "new a 1")], at: Self.start.addingTimeInterval(60))
            let archive = store.archive
            let ordered = try archive.items(of: "a", itemIDs: ["2", "missing", "0", "9"]).map(\.item.id)
            let renamed = try archive.items(of: "a", itemIDs: ["1"]).map(\.item.title)
            return (ordered, renamed)
        }
        #expect(ordered == ["2", "0"], "in the order asked, without another source's item or an unknown id")
        #expect(renamed == ["new a 1"])
    }
}
