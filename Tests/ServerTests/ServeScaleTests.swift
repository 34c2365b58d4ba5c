import Foundation
import ProviderTesting
import Presentation
@testable import Server
import Testing

/// `serve` over more sources than a page, a feed or a scrape shows at once: every response bounded, and the
/// bounds say how to get the rest.
@Suite("serve: bounded feeds, report pages, metrics and dashboard at 150 sources")
struct ServeScaleTests {
    static let count = 150
    static let itemsPerSource = 5

    /// Source `sNNN`'s item `k` is dated `NNN * 5 + k` minutes after a base, so the newest items are the last
    /// sources' last items.
    static func fleet() -> (manifest: String, files: [String: String]) {
        var sources: [String] = []
        var files: [String: String] = [:]
        let base = Date(timeIntervalSince1970: 1_790_000_000)
        for index in 0..<count {
            let id = String(format: "s%03d", index)
            sources.append(#"{"id": "\#(id)", "provider": "files", "options": {"paths": ["data/\#(id).ndjson"]}}"#)
            files["data/\(id).ndjson"] = ndjson((0..<itemsPerSource).map { item in
                let date = base.addingTimeInterval(Double(index * itemsPerSource + item) * 60)
                return ("\(id)-\(item)", "Item \(item) of \(id)", ISO8601DateFormatter().string(from: date))
            })
        }
        let manifest = #"{"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": ["# + sources.joined(separator: ",\n") + "]}"
        return (manifest, files)
    }

    /// The ids of the newest `n` items: the last sources' items, newest first.
    static func newest(_ n: Int) -> [String] {
        (0..<(count * itemsPerSource)).reversed().prefix(n).map { position in
            "urn:aggregate:" + String(format: "s%03d", position / itemsPerSource) + ":" + String(format: "s%03d", position / itemsPerSource) + "-\(position % itemsPerSource)"
        }
    }

    @Test("/feed.atom and /feed.json: the newest 100 entries by default, ?limit= and ?source= narrow, feedparser clean, a bad limit is a 400 naming it")
    func feeds() async throws {
        let (manifest, files) = Self.fleet()
        let harness = try await ServeHarness.start(manifest: manifest, files: files)
        try await harness.ready()
        let atom = try await FeedCheck.feedparser(try await harness.request("/feed.atom").text)
        #expect(!atom.bozo, "\(atom.error)")
        #expect(atom.entries.map(\.id) == Self.newest(100))
        let five = try await FeedCheck.feedparser(try await harness.request("/feed.atom?limit=5").text)
        #expect(five.entries.map(\.id) == Self.newest(5))
        let one = try await FeedCheck.feedparser(try await harness.request("/feed.atom?source=s007&limit=2").text)
        #expect(one.entries.map(\.id) == ["urn:aggregate:s007:s007-4", "urn:aggregate:s007:s007-3"])
        let json = try #require(try await harness.request("/feed.json?limit=3").json()["items"] as? [[String: Any]])
        #expect(json.count == 3)
        for bad in ["limit=0", "limit=1001", "limit=ten"] {
            let reply = try await harness.request("/feed.atom?" + bad)
            #expect(reply.status == 400)
            #expect((try reply.json()["error"] as? [String: Any])?["parameter"] as? String == "limit")
        }
        try await harness.stop()
    }

    @Test("/api/report: 100 sources a page, a Link header to the next page; the pages together hold every source once")
    func reportPages() async throws {
        let (manifest, files) = Self.fleet()
        let harness = try await ServeHarness.start(manifest: manifest, files: files)
        try await harness.ready()
        var seen: [String] = []
        var path: String? = "/api/report"
        var pages = 0
        while let next = path {
            let reply = try await harness.request(next)
            #expect(reply.status == 200)
            let sources = try #require(try reply.json()["sources"] as? [[String: Any]])
            let items = try #require(try reply.json()["items"] as? [[String: Any]])
            #expect(items.count == sources.count * Self.itemsPerSource, "the page's sources' items")
            seen += sources.compactMap { $0["id"] as? String }
            path = reply.header("Link").flatMap { link in
                link.hasSuffix("rel=\"next\"") ? String(link.dropFirst().prefix { $0 != ">" }) : nil
            }
            pages += 1
        }
        #expect(pages == 2)
        #expect(seen == (0..<Self.count).map { String(format: "s%03d", $0) })
        let small = try await harness.request("/api/report?limit=60")
        #expect((try small.json()["sources"] as? [Any])?.count == 60)
        #expect(small.header("Link")?.contains("limit=60") == true)
        #expect((try await harness.request("/api/report?cursor=bogus").json()["error"] as? [String: Any])?["parameter"] as? String == "cursor")
        #expect(try await harness.request("/api/report?limit=0").status == 400)
        try await harness.stop()
    }

    @Test("/metrics past 100 sources: fleet-wide series without a source label, and the fleet's state")
    func metricsBounded() async throws {
        let (manifest, files) = Self.fleet()
        let harness = try await ServeHarness.start(manifest: manifest, files: files)
        try await harness.ready()
        let text = try await harness.request("/metrics").text
        let samples = Sample.parse(text)
        #expect(!samples.contains { $0.labels["source"] != nil }, "no per-source series")
        #expect(samples.value("aggregate_refreshes_total", ["outcome": "ok"]) == Double(Self.count))
        #expect(samples.value("aggregate_sources", ["status": "ok"]) == Double(Self.count))
        #expect(samples.value("aggregate_items") == Double(Self.count * Self.itemsPerSource))
        #expect(samples.value("aggregate_new_items_total") == Double(Self.count * Self.itemsPerSource))
        try await harness.stop()
    }

    @Test("--metrics-sources off: no source label even for two sources")
    func metricsOff() async throws {
        let harness = try await ServeHarness.start(manifest: """
            {"version": 1, "sources": [{"id": "a", "provider": "files", "options": {"paths": ["a.ndjson"]}},
              {"id": "b", "provider": "files", "options": {"paths": ["a.ndjson"]}}]}
            """, files: ["a.ndjson": ndjson([("1", "One", nil)])], metricsSources: .off)
        try await harness.ready()
        let samples = Sample.parse(try await harness.request("/metrics").text)
        #expect(!samples.contains { $0.labels["source"] != nil })
        #expect(samples.value("aggregate_refreshes_total", ["outcome": "ok"]) == 2)
        try await harness.stop()
    }

    @Test("the dashboard: summary counts, gzip, search and filters on the server, pages, the per-source page, the newest items")
    func dashboard() async throws {
        let (manifest, files) = Self.fleet()
        let harness = try await ServeHarness.start(manifest: manifest, files: files)
        try await harness.ready()
        let page = try await harness.request("/")
        #expect(page.status == 200)
        #expect(page.header("Content-Security-Policy") != nil)
        #expect(page.text.contains(#"data-count="ok"><dt>ok</dt><dd><a href="/?status=ok">150</a></dd>"#))
        #expect(page.text.contains(#"data-count="items"><dt>items</dt><dd><a href="/items">750</a></dd>"#))
        #expect(page.text.components(separatedBy: "<tr data-source=").count - 1 == Self.count)
        let gzipped = try await harness.request("/", headers: [("Accept-Encoding", "gzip")])
        #expect(gzipped.header("Content-Encoding") == "gzip")
        #expect(gzipped.body.count < page.body.count / 4)

        let search = try await harness.request("/?q=s042").text
        #expect(search.components(separatedBy: "<tr data-source=").count - 1 == 1)
        #expect(search.contains(#"<tr data-source="s042""#))
        #expect(search.contains(#"href="/?q=s042&amp;sort=items""#), "sorting keeps the search")
        #expect(try await harness.request("/?status=error").text.contains("No source matches."))
        #expect(try await harness.request("/?provider=files&status=ok").text.contains("150 sources match"))
        let bad = try await harness.request("/?status=broken")
        #expect(bad.status == 400)
        #expect((try bad.json()["error"] as? [String: Any])?["parameter"] as? String == "status")

        let source = try await harness.request("/sources/s042").text
        #expect(source.contains(#"<section class="card" data-source="s042""#))
        #expect((0..<Self.itemsPerSource).allSatisfy { source.contains("data-item=\"s042-\($0)\"") })
        #expect(try await harness.request("/sources/nope").status == 404)

        let items = try await harness.request("/items").text
        #expect(items.components(separatedBy: "<tr data-item=").count - 1 == ItemsPage.pageSize)
        #expect(items.contains(#"data-item="s149-4""#))
        let next = try #require(items.firstMatch(of: /rel="next" href="([^"]+)"/)?.1, "a link to the next page")
        let second = try await harness.request(String(next).replacingOccurrences(of: "&amp;", with: "&")).text
        #expect(second.contains(#"data-item="s139-4""#), "items 51-100: the next ten sources")
        #expect(second.contains(#"rel="first" href="/items""#))
        #expect(try await harness.request("/items?page=2").status == 400)
        #expect(try await harness.request("/items?cursor=nope").status == 400)
        #expect(try await harness.request("/summary").text.hasPrefix(#"<section id="summary""#))
        try await harness.stop()
    }
}
