import Domain
import Foundation
import Presentation
import Testing

@Suite("JSON renderer")
struct JSONRendererTests {
    @Test("prints the documented contract: stable key order, nulls for absent item values, sorted fields")
    func golden() {
        let expected = #"""
            {
              "generatedAt": "2026-11-22T10:00:00Z",
              "summary": {
                "total": 4,
                "ok": 2,
                "error": 1,
                "timeout": 0,
                "skipped": 1,
                "stale": 0,
                "problems": [
                  "issues"
                ]
              },
              "sources": [
                {
                  "id": "notes",
                  "provider": "files",
                  "status": "ok",
                  "cache": "off",
                  "itemCount": 2,
                  "durationMs": 4
                },
                {
                  "id": "issues",
                  "provider": "github",
                  "status": "error",
                  "cache": "miss",
                  "itemCount": 0,
                  "durationMs": 31,
                  "error": {
                    "kind": "unauthorized",
                    "message": "Bad credentials"
                  }
                },
                {
                  "id": "feed",
                  "provider": "rss",
                  "status": "skipped",
                  "cache": "off",
                  "itemCount": 0,
                  "durationMs": 0,
                  "message": "disabled in the manifest"
                },
                {
                  "id": "empty",
                  "provider": "files",
                  "status": "ok",
                  "cache": "off",
                  "itemCount": 0,
                  "durationMs": 1,
                  "warnings": [
                    "a.csv: parse: line 3: bad row"
                  ]
                }
              ],
              "items": [
                {
                  "source": "notes",
                  "kind": "record",
                  "id": "1",
                  "title": "Buy \"milk\", eggs | bread\nand 日本語 café 👍",
                  "subtitle": null,
                  "url": "https://example.com/a?b=1",
                  "date": "2026-11-20T08:00:00Z",
                  "fields": {
                    "count": 3,
                    "nested": {
                      "a": null,
                      "z": 1
                    },
                    "ratio": 21.3,
                    "tags": [
                      "a",
                      "b"
                    ],
                    "title": "Buy \"milk\", eggs | bread\nand 日本語 café 👍"
                  }
                },
                {
                  "source": "notes",
                  "kind": "record",
                  "id": "2",
                  "title": "Plain",
                  "subtitle": null,
                  "url": null,
                  "date": "2026-11-21T00:00:00Z",
                  "fields": {
                    "count": 4
                  }
                }
              ]
            }

            """#
        #expect(JSONRenderer().render(SampleReports.golden) == expected)
    }

    @Test("a source served from its last good copy says stale in status and cache, with why and how old")
    func stale() throws {
        let report = AggregateReport(generatedAt: Date(timeIntervalSince1970: 0), sources: [SourceReport(
            descriptor: SourceDescriptor(id: "weather", provider: "openweather", timeoutSeconds: 5, concurrency: 1),
            status: .stale, items: [Item(kind: .weather, id: "Seoul", title: "Seoul")],
            error: SourceError(.network, "HTTP 503 Service Unavailable"),
            message: "served from the last good copy, 12 min old, because this run's load failed", cache: .stale)])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(JSONRenderer().render(report).utf8)) as? [String: Any])
        let source = try #require((root["sources"] as? [[String: Any]])?.first)
        #expect(source["status"] as? String == "stale")
        #expect(source["cache"] as? String == "stale")
        #expect(source["itemCount"] as? Int == 1)
        #expect((source["error"] as? [String: String])?["kind"] == "network")
        #expect((source["message"] as? String)?.contains("12 min old") == true)
    }

    @Test("a run with no sources is an empty but complete document")
    func noSources() {
        let expected = """
            {
              "generatedAt": "2026-11-22T10:00:00Z",
              "summary": {
                "total": 0,
                "ok": 0,
                "error": 0,
                "timeout": 0,
                "skipped": 0,
                "stale": 0,
                "problems": []
              },
              "sources": [],
              "items": []
            }

            """
        #expect(JSONRenderer().render(SampleReports.empty) == expected)
    }

    @Test("the output parses back and has every contract key with its type")
    func parsesBack() throws {
        let text = JSONRenderer().render(SampleReports.everyKind)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(root.keys) == ["generatedAt", "summary", "sources", "items"])
        #expect(root["generatedAt"] as? String == "2026-11-22T10:00:00Z")

        let sources = try #require(root["sources"] as? [[String: Any]])
        #expect(sources.map { $0["id"] as? String } == SampleReports.everyKind.sources.map(\.id))
        for source in sources {
            for key in ["id", "provider", "status", "cache"] { #expect(source[key] is String, "\(key)") }
            #expect(CacheStatus(rawValue: source["cache"] as? String ?? "") != nil)
            for key in ["itemCount", "durationMs"] { #expect(source[key] is Int, "\(key)") }
            #expect(SourceStatus(rawValue: source["status"] as? String ?? "") != nil)
        }
        let failed = try #require(sources.first { $0["id"] as? String == "private" })
        let error = try #require(failed["error"] as? [String: String])
        #expect(error == ["kind": "unauthorized", "message": "Bad credentials"])
        #expect(sources.first { $0["id"] as? String == "notes" }?["error"] == nil)
        #expect(sources.first { $0["id"] as? String == "weather" }?["warnings"] as? [String]
            == ["Busan: notFound: city not found"])

        let items = try #require(root["items"] as? [[String: Any]])
        #expect(items.count == SampleReports.everyKind.sources.map(\.items.count).reduce(0, +))
        for item in items {
            #expect(Set(item.keys) == ["source", "kind", "id", "title", "subtitle", "url", "date", "fields"])
            #expect(item["fields"] is [String: Any])
        }
        #expect(items.map { $0["source"] as? String } == [
            "notes", "notes", "notes", "weather", "weather", "issues", "issues", "movies", "news",
        ])
    }

    @Test("limit caps the items of each source while itemCount still counts all of them")
    func limitPerSource() throws {
        let text = JSONRenderer().render(SampleReports.everyKind, RenderOptions(limit: 1))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let items = try #require(root["items"] as? [[String: Any]])
        #expect(items.map { $0["source"] as? String } == ["notes", "weather", "issues", "movies", "news"])
        #expect(items.map { $0["id"] as? String } == ["1", "Seoul", "acme/app#12", "603", "g1"])
        let sources = try #require(root["sources"] as? [[String: Any]])
        #expect(sources.first?["itemCount"] as? Int == 3)
    }

    @Test("numbers print in their shortest form, integral doubles without a fraction, non-finite as null")
    func numbers() {
        let item = Item(kind: .record, id: "n", title: "n", fields: [
            "a": .double(21.3), "b": .double(0.1 + 0.2), "c": .double(21), "d": .double(.infinity),
            "e": .int(3), "f": .double(1e-7),
        ])
        let report = AggregateReport(
            generatedAt: SampleReports.date("2026-11-22T10:00:00Z"),
            sources: [SourceReport(descriptor: SampleReports.descriptor("n", "files"), status: .ok, items: [item])])
        let line = NDJSONRenderer().render(report)
        #expect(line.contains(#""fields":{"a":21.3,"b":0.30000000000000004,"c":21,"d":null,"e":3,"f":1e-07}"#))
    }
}
