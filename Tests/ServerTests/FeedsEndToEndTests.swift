import Foundation
import HTTPClient
import ProviderTesting
@testable import Server
import Testing

@Suite("serve: Atom and JSON Feed")
struct FeedsEndToEndTests {
    @Test("/feed.atom and /feed.json: valid (feedparser, no bozo; the JSON Feed 1.1 schema), stable ids, ?source=, ETag")
    func feeds() async throws {
        let fixtures = try await FixtureServer.start()
        let rss = try #require(Bundle.module.url(forResource: "rss2_spec_sample_liftoff_news", withExtension: "xml", subdirectory: "Fixtures"))
        fixtures.route("/news.xml", try .file(rss, contentType: "application/rss+xml"))
        let harness = try await ServeHarness.start(manifest: """
            {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
              {"id": "news", "provider": "feed", "options": {"urls": ["\(fixtures.baseURL.absoluteString)/news.xml"]}},
              {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}}
            ]}
            """, files: ["data/notes.ndjson": ndjson([("n1", "A <dated> note & more", "2026-11-01T10:00:00Z")])])
        try await harness.ready()

        let atom = try await harness.request("/feed.atom")
        #expect(atom.status == 200)
        #expect(atom.header("Content-Type")?.hasPrefix("application/atom+xml") == true)
        let reading = try await FeedCheck.feedparser(atom.text)
        #expect(!reading.bozo, "\(reading.error)")
        #expect(reading.version == "atom10")
        #expect(reading.entries.count == 5, "the four Liftoff News items and the note")
        #expect(reading.entries.contains { $0.id == "urn:aggregate:notes:n1" && $0.title == "A <dated> note & more" })
        #expect(reading.entries.allSatisfy { $0.id?.hasPrefix("urn:aggregate:news:") == true || $0.id?.hasPrefix("urn:aggregate:notes:") == true })

        let json = try await harness.request("/feed.json")
        #expect(json.header("Content-Type")?.hasPrefix("application/feed+json") == true)
        let errors = try await FeedCheck.validateJSONFeed(json.text)
        #expect(errors.isEmpty, "\(errors)")
        let items = try #require(try json.json()["items"] as? [[String: Any]])
        #expect(items.count == 5)

        let notesOnly = try await FeedCheck.feedparser(try await harness.request("/feed.atom?source=notes").text)
        #expect(notesOnly.entries.map(\.id) == ["urn:aggregate:notes:n1"])
        #expect(try await harness.request("/feed.atom?source=nope").status == 400)

        let etag = try #require(atom.header("ETag"))
        #expect(try await harness.request("/feed.atom", headers: [("If-None-Match", etag)]).status == 304)

        // Another cycle of the same data: the same ids, so a reader sees nothing twice. The cycle is counted
        // (`/metrics`), not seen in `updated`, which is to the second and would need a second to pass.
        func newsCycles(_ reply: HTTPResponse) -> Double {
            Sample.parse(reply.text).value("aggregate_source_refreshes_total", ["source": "news", "outcome": "ok"]) ?? 0
        }
        let before = newsCycles(try await harness.request("/metrics"))
        #expect(harness.server.watcher.refresh("news"))
        #expect(newsCycles(try await harness.poll("/metrics") { newsCycles($0) > before }) > before)
        let again = try await FeedCheck.feedparser(try await harness.request("/feed.atom").text)
        #expect(Set(again.entries.compactMap(\.id)) == Set(reading.entries.compactMap(\.id)))
        try await harness.stop()
        await fixtures.stop()
    }
}
