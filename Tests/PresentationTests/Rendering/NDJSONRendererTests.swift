import Domain
import Foundation
import Presentation
import Testing

@Suite("NDJSON renderer")
struct NDJSONRendererTests {
    @Test("prints one compact item per line and nothing else")
    func golden() {
        let expected = #"""
            {"source":"notes","kind":"record","id":"1","title":"Buy \"milk\", eggs | bread\nand 日本語 café 👍","subtitle":null,"url":"https://example.com/a?b=1","date":"2026-11-20T08:00:00Z","fields":{"count":3,"nested":{"a":null,"z":1},"ratio":21.3,"tags":["a","b"],"title":"Buy \"milk\", eggs | bread\nand 日本語 café 👍"}}
            {"source":"notes","kind":"record","id":"2","title":"Plain","subtitle":null,"url":null,"date":"2026-11-21T00:00:00Z","fields":{"count":4}}

            """#
        #expect(NDJSONRenderer().render(SampleReports.golden) == expected)
    }

    @Test("no items print nothing at all")
    func noItems() {
        #expect(NDJSONRenderer().render(SampleReports.empty) == "")
        let onlyFailures = AggregateReport(
            generatedAt: SampleReports.golden.generatedAt, sources: Array(SampleReports.golden.sources.dropFirst()))
        #expect(NDJSONRenderer().render(onlyFailures) == "")
    }

    @Test("every line is an item object like the JSON document's, in the same order")
    func sameShapeAsJSON() throws {
        let report = SampleReports.everyKind
        let lines = NDJSONRenderer().render(report, RenderOptions(limit: 1)).split(separator: "\n")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONRenderer().render(report, RenderOptions(limit: 1)).utf8))
                as? [String: Any])
        let items = try #require(document["items"] as? [Any])
        #expect(lines.count == items.count)
        for (line, item) in zip(lines, items) {
            let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
            #expect(NSDictionary(dictionary: parsed as? [String: Any] ?? [:]).isEqual(item))
        }
    }
}
