import CompressNIO
import Foundation
import NIOCore
@testable import Server
import Testing

/// The JSON API of a running server in this process, asked over real HTTP on 127.0.0.1.
@Suite("serve: the JSON API, end to end")
struct APIEndToEndTests {
    static let manifest = """
        {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
          {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}},
          {"id": "tasks", "provider": "files", "options": {"paths": ["data/tasks.ndjson"]}}
        ]}
        """
    static let files = [
        "data/notes.ndjson": ndjson([
            ("n1", "Apples and pears", "2026-11-01T10:00:00Z"), ("n2", "Café crème", "2026-11-03T10:00:00Z"),
            ("n3", "Undated", nil),
        ]),
        "data/tasks.ndjson": ndjson([("t1", "Buy apples", "2026-11-02T10:00:00Z"), ("t2", "Sell pears", "2026-10-01T10:00:00Z")]),
    ]

    @Test("/api/report is the --format json contract of every source; /healthz and /readyz answer")
    func report() async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files)
        try await harness.ready()
        #expect(try await harness.request("/healthz").status == 200)
        let reply = try await harness.request("/api/report")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "application/json")
        let json = try reply.json()
        let sources = try #require(json["sources"] as? [[String: Any]])
        #expect(sources.map { $0["id"] as? String } == ["notes", "tasks"])
        #expect(sources.map { $0["status"] as? String } == ["ok", "ok"])
        #expect(sources.allSatisfy { $0["cache"] != nil && $0["itemCount"] != nil && $0["durationMs"] != nil })
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["n1", "n2", "n3", "t1", "t2"])
        #expect(items.allSatisfy { $0.keys.contains("subtitle") && $0.keys.contains("url") && $0["kind"] as? String == "record" })
        #expect(json["generatedAt"] is String)
        try await harness.stop()
    }

    @Test("/api/items reads the archive: filters by source, kind, since and full text, sorts by date, and pages with a cursor")
    func items() async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files)
        try await harness.ready()
        // Newest first; the undated n3 by when it was first seen (this run).
        #expect(try await harness.request("/api/items").itemKeys() == ["notes/n3", "notes/n2", "tasks/t1", "notes/n1", "tasks/t2"])
        #expect(try await harness.request("/api/items?sort=oldest").itemKeys()
            == ["tasks/t2", "notes/n1", "tasks/t1", "notes/n2", "notes/n3"])
        #expect(try await harness.request("/api/items?source=tasks").itemKeys() == ["tasks/t1", "tasks/t2"])
        #expect(try await harness.request("/api/items?kind=issue").itemKeys() == [])
        #expect(try await harness.request("/api/items?kind=record,issue&source=notes,tasks&q=APPLES").itemKeys().sorted()
            == ["notes/n1", "tasks/t1"], "case ignored")
        #expect(try await harness.request("/api/items?q=cafe").itemKeys() == ["notes/n2"], "accents ignored")
        #expect(try await harness.request("/api/items?q=apple%20-buy").itemKeys() == ["notes/n1"], "stems, and a word left out")
        #expect(try await harness.request("/api/items?since=2026-11-01T12:00:00Z").itemKeys() == ["notes/n3", "notes/n2", "tasks/t1"])

        var pages: [[String]] = []
        var path = "/api/items?sort=date&limit=2"
        while pages.count < 5 {
            let reply = try await harness.request(path)
            pages.append(try reply.itemKeys())
            guard let cursor = try reply.json()["nextCursor"] as? String else { break }
            #expect(!cursor.contains("notes") && !cursor.contains("n1"), "the cursor is opaque")
            path = "/api/items?sort=date&limit=2&cursor=\(cursor)"
        }
        #expect(pages == [["notes/n3", "notes/n2"], ["tasks/t1", "notes/n1"], ["tasks/t2"]])
        try await harness.stop()
    }

    @Test("a bad parameter is a 400 whose JSON error names it", arguments: [
        ("limit=0", "limit"), ("limit=x", "limit"), ("limit=501", "limit"), ("since=yesterday", "since"),
        ("kind=tweet", "kind"), ("source=nope", "source"), ("sort=random", "sort"), ("cursor=%%%", "cursor"),
        ("cursor=bm90LWEtY3Vyc29y", "cursor"), ("colour=red", "colour"), ("limit=5&limit=6", "limit"), ("q=", "q"),
        ("q=%22open", "q"), ("q=a%20OR", "q"), ("sort=source", "sort"),
    ])
    func badParameters(_ query: String, _ parameter: String) async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files)
        try await harness.ready()
        let reply = try await harness.request("/api/items?\(query)")
        #expect(reply.status == 400)
        #expect(reply.header("Content-Type") == "application/json")
        let error = try #require(try reply.json()["error"] as? [String: Any])
        #expect(error["parameter"] as? String == parameter)
        #expect((error["message"] as? String)?.isEmpty == false)
        try await harness.stop()
    }

    @Test("conditional GET: the same state answers 304 to its ETag, a changed state 200 with a new ETag; gzip when asked")
    func conditionalAndGzip() async throws {
        let many = (1...60).map { ("id\($0)", "Item number \($0) with a title long enough to compress", "2026-11-01T10:00:00Z") }
        let harness = try await ServeHarness.start(
            manifest: Self.manifest, files: ["data/notes.ndjson": ndjson(many), "data/tasks.ndjson": ndjson([])])
        try await harness.ready()
        for path in ["/api/report", "/api/items?limit=50", "/api/sources"] {
            let first = try await harness.request(path)
            let etag = try #require(first.header("ETag"))
            let again = try await harness.request(path, headers: [("If-None-Match", etag)])
            #expect(again.status == 304, "\(path)")
            #expect(again.body.isEmpty)
            let other = try await harness.request(path, headers: [("If-None-Match", "\"something-else\"")])
            #expect(other.status == 200)
            #expect(other.body == first.body)
        }
        let plain = try await harness.request("/api/items?limit=50")
        #expect(plain.header("Content-Encoding") == nil)
        let zipped = try await harness.request("/api/items?limit=50", headers: [("Accept-Encoding", "gzip, deflate")])
        #expect(zipped.header("Content-Encoding") == "gzip")
        #expect(zipped.header("Vary") == "Accept-Encoding")
        #expect(zipped.body.count < plain.body.count / 2)
        var buffer = ByteBuffer(bytes: zipped.body)
        let inflated = try buffer.decompress(with: .gzip())
        #expect(Array(buffer: inflated) == Array(plain.body), "the gzip body inflates to the plain one")

        let before = try await harness.request("/api/report")
        try harness.write("data/notes.ndjson", ndjson([("changed", "Changed", nil)]))
        #expect(harness.server.watcher.refresh("notes"))
        let etag = try #require(before.header("ETag"))
        let after = try await harness.poll("/api/report") { (try? $0.json()["items"] as? [[String: Any]])??.first?["id"] as? String == "changed" }
        #expect(after.header("ETag") != etag)
        let conditional = try await harness.request("/api/report", headers: [("If-None-Match", etag)])
        #expect(conditional.status == 200, "an old ETag gets the new state")
        try await harness.stop()
    }

    @Test("/api/sources: status, cache state, last success, next refresh and the error of each source")
    func sources() async throws {
        let harness = try await ServeHarness.start(manifest: """
            {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
              {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}},
              {"id": "broken", "provider": "files", "options": {"paths": ["data/missing.ndjson"]}}
            ]}
            """, files: Self.files)
        try await harness.ready()
        let reply = try await harness.request("/api/sources")
        let sources = try #require(try reply.json()["sources"] as? [[String: Any]])
        #expect(sources.map { $0["id"] as? String } == ["notes", "broken"])
        let notes = sources[0]
        #expect(notes["status"] as? String == "ok")
        #expect(notes["cache"] as? String == "off")
        #expect(notes["itemCount"] as? Int == 3)
        #expect(notes["lastSuccess"] is String)
        #expect(notes["nextRefresh"] is String)
        #expect(notes["error"] is NSNull)
        let broken = sources[1]
        #expect(broken["status"] as? String == "error")
        #expect(broken["lastSuccess"] is NSNull)
        let error = try #require(broken["error"] as? [String: Any])
        #expect(error["kind"] as? String == "notFound")
        #expect((error["message"] as? String)?.isEmpty == false)
        #expect(try await harness.request("/nothing-here").status == 404)
        try await harness.stop()
    }
}
