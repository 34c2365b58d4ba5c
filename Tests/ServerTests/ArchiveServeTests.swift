import Foundation
import ProviderTesting
@testable import Server
import Testing

/// serve reads items from the store's archive: what a run wrote is what every page shows, items that left their
/// source stay findable, a restarted server shows them without running anything, and memory holds no item.
@Suite("serve: items from the store's archive")
struct ArchiveServeTests {
    static let manifest = APIEndToEndTests.manifest

    @Test("a restarted server shows what earlier runs archived, also of a source that now fails and items gone from their files")
    func restarted() async throws {
        let directory = ScratchDirectory.path("aggregate-serve-archive")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await ServeHarness.start(manifest: Self.manifest, files: APIEndToEndTests.files, in: directory)
        try await first.ready()
        try await first.stop()

        // Now notes cannot be read at all, and tasks lost t2.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("data/notes.ndjson"))
        let second = try await ServeHarness.start(
            manifest: Self.manifest, files: ["data/tasks.ndjson": ndjson([("t1", "Buy apples", "2026-11-02T10:00:00Z")])], in: directory)
        try await second.ready()
        #expect(try await second.request("/api/items?sort=oldest").itemKeys()
            == ["tasks/t2", "notes/n1", "tasks/t1", "notes/n2", "notes/n3"], "every archived item, whatever the runs since")
        #expect(try await second.request("/api/items?q=pears").itemKeys().sorted() == ["notes/n1", "tasks/t2"])
        let report = try await second.request("/api/report").json()
        let sources = try #require(report["sources"] as? [[String: Any]])
        #expect(sources.map { $0["status"] as? String } == ["error", "ok"])
        let latest = try #require(report["items"] as? [[String: Any]])
        #expect(latest.map { "\($0["source"] ?? "")/\($0["id"] ?? "")" } == ["tasks/t1"], "the report holds each source's latest run only")
        let feed = try await second.request("/feed.json").text
        #expect(feed.contains("urn:aggregate:notes:n2") && feed.contains("urn:aggregate:tasks:t2"), "the feed reads the archive too")
        try await second.stop()
    }

    @Test("the state in memory keeps counts and ids, no item; pages read the items back in the run's order")
    func memoryHoldsNoItem() async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: APIEndToEndTests.files)
        try await harness.ready()
        let snapshot = harness.server.state.snapshot
        #expect(snapshot.sources.allSatisfy { $0.report?.items.isEmpty == true })
        #expect(snapshot.sources.map { $0.report?.itemCount } == [3, 2])
        #expect(snapshot.latestItemIDs.mapValues(\.ids) == ["notes": ["n1", "n2", "n3"], "tasks": ["t1", "t2"]])
        let report = try await harness.request("/api/report").json()
        let items = try #require(report["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["n1", "n2", "n3", "t1", "t2"], "each source's items in its own order")
        let card = try await harness.request("/sources/notes").text
        #expect(card.contains("Apples and pears") && card.contains("Undated"), "the card shows the latest items, read back")
        try await harness.stop()
    }

    @Test("/items searches the archive: the box holds the query, matches are marked, a mistake is a 400 naming q")
    func searchPage() async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: APIEndToEndTests.files)
        try await harness.ready()
        let page = try await harness.request("/items?q=apples").text
        #expect(page.contains(#"<input type="search" name="q""#) && page.contains(#"value="apples""#))
        #expect(page.contains(#"data-item="n1""#) && page.contains(#"data-item="t1""#) && !page.contains(#"data-item="n2""#))
        #expect(page.contains("<mark>"), "the matching passage marked")
        let front = try await harness.request("/").text
        #expect(front.contains(#"<form class="search" role="search" method="get" action="/items">"#), "every page has the box")
        let mistake = try await harness.request("/items?q=%22open")
        #expect(mistake.status == 400)
        #expect((try mistake.json()["error"] as? [String: Any])?["parameter"] as? String == "q")
        try await harness.stop()
    }
}
