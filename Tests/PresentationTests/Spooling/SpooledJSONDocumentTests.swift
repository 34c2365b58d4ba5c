import Domain
import Foundation
import Presentation
import Testing

@Suite("Spooled JSON document: the JSON renderer's text with the items kept on disk")
struct SpooledJSONDocumentTests {
    private func spooled(_ report: AggregateReport, limit: Int? = nil, batch: Int = 1) -> (text: String, failure: String?) {
        let spool = SpooledJSONDocument(limit: limit)
        for source in report.sources {
            var start = 0
            while start < source.items.count {
                spool.write(Array(source.items[start..<min(start + batch, source.items.count)]), source: source.id)
                start += batch
            }
        }
        var bytes: [UInt8] = []
        let failure = spool.finish(report) { bytes += $0 }
        return (String(decoding: bytes, as: UTF8.self), failure)
    }

    @Test("items written batch by batch give exactly the renderer's document", arguments: [1, 2, 100])
    func sameAsRenderer(batch: Int) {
        for report in [SampleReports.everyKind, SampleReports.golden, SampleReports.empty] {
            let (text, failure) = spooled(report, batch: batch)
            #expect(failure == nil)
            #expect(text == JSONRenderer().render(report))
        }
    }

    @Test("--limit counts per source across batches, as the renderer's does")
    func limit() {
        let report = SampleReports.everyKind
        #expect(report.sources.contains { $0.items.count > 1 })
        let (text, _) = spooled(report, limit: 1, batch: 1)
        #expect(text == JSONRenderer().render(report, RenderOptions(limit: 1)))
    }

    @Test("many items go through the temporary file and come back in order")
    func manyItems() throws {
        let items = (0..<5_000).map { Item(kind: .record, id: String($0), title: String(repeating: "x", count: 40)) }
        let source = SourceReport(
            descriptor: SampleReports.descriptor("big", "files"), status: .ok, items: items, duration: 0.5)
        let report = AggregateReport(generatedAt: SampleReports.date("2026-11-22T10:00:00Z"), sources: [source])
        let (text, failure) = spooled(report, batch: 256)
        #expect(failure == nil)
        #expect(text.utf8.count > 2 * 64 * 1024)  // several spool chunks
        #expect(text == JSONRenderer().render(report))
    }
}
