import Domain
import Foundation
import Presentation
import Synchronization
import Testing

/// Golden tests: the spooled output of every format it writes is byte for byte the collecting renderer's on the
/// same items (for a date order, on the report `ShapeItemsUseCase` sorted, as a collecting run does).
@Suite("Spooled report: CSV, table, Markdown and date orders with the items kept on disk")
struct SpooledReportTests {
    static let reports = [SampleReports.everyKind, SampleReports.golden, SampleReports.empty, SpoolSamples.edgeCases]

    /// The spooled text, items written `batch` at a time per source.
    private func spooled(
        _ report: AggregateReport, _ format: OutputFormat, order: ItemOrder, options: RenderOptions, batch: Int
    ) -> (text: String, failure: String?) {
        let spool = SpooledReport(format: format, order: order, options: options)
        for source in report.sources { write(source, to: spool.write, batch: batch) }
        var bytes: [UInt8] = []
        let failure = spool.finish(report) { bytes += $0 }
        return (String(decoding: bytes, as: UTF8.self), failure)
    }

    private func write(_ source: SourceReport, to write: ([Item], String) -> Void, batch: Int) {
        var start = 0
        while start < source.items.count {
            write(Array(source.items[start..<min(start + batch, source.items.count)]), source.id)
            start += batch
        }
    }

    /// What a collecting run prints: the items shaped by `order` (the report's counts after it).
    private func collected(_ report: AggregateReport, _ format: OutputFormat, order: ItemOrder, options: RenderOptions) -> String {
        let shaped = ShapeItemsUseCase(ItemShaping(order: order)).execute(report)
        return Renderers.renderer(for: format).string(for: shaped, options: options)
    }

    @Test("a date order spools up to 65,535 sources and collects past them (a place keeps the source in 16 bits)")
    func sourcesADateOrderCanTellApart() {
        for format in [OutputFormat.csv, .table, .markdown, .json, .ndjson] {
            #expect(SpooledReport.handles(format, order: .date, sources: 65_535))
            #expect(!SpooledReport.handles(format, order: .date, sources: 65_536))
        }
        #expect(SpooledReport.handles(.csv, order: .source, sources: 100_000))
        #expect(!SpooledReport.handles(.ndjson, order: .source, sources: 1))
    }

    @Test("CSV, table and Markdown in the sources' order: the renderer's bytes", arguments: [1, 2, 100])
    func sourceOrder(batch: Int) {
        for format in [OutputFormat.csv, .table, .markdown] {
            for report in Self.reports {
                for options in [RenderOptions(), RenderOptions(limit: 1), RenderOptions(limit: 2, verbose: true, width: 40)] {
                    let (text, failure) = spooled(report, format, order: .source, options: options, batch: batch)
                    #expect(failure == nil)
                    #expect(text == collected(report, format, order: .source, options: options), "\(format) \(batch)")
                }
            }
        }
    }

    @Test("every format in a date order: the sorted renderer's bytes, equal dates and undated items stable",
          arguments: [1, 3])
    func dateOrder(batch: Int) {
        for format in [OutputFormat.csv, .table, .markdown, .json] {
            for report in Self.reports {
                for options in [RenderOptions(), RenderOptions(limit: 1), RenderOptions(limit: 2)] {
                    let (text, failure) = spooled(report, format, order: .date, options: options, batch: batch)
                    #expect(failure == nil)
                    #expect(text == collected(report, format, order: .date, options: options), "\(format) \(batch)")
                }
            }
        }
    }

    @Test("NDJSON in a date order goes through the stream writer newest first, as the merged report's")
    func ndjsonDateOrder() {
        for report in Self.reports {
            for limit in [nil, 1] {
                let lines = Mutex<[UInt8]>([])
                let writer = NDJSONStreamWriter(limit: nil) { chunk in lines.withLock { $0 += chunk } }
                let spool = SpooledReport(format: .ndjson, order: .date, options: RenderOptions(limit: limit))
                for source in report.sources { write(source, to: spool.write, batch: 2) }
                #expect(spool.finish(to: writer) == nil)
                writer.flush()
                let expected = collected(report, .ndjson, order: .date, options: RenderOptions(limit: limit))
                #expect(lines.withLock { String(decoding: $0, as: UTF8.self) } == expected)
            }
        }
    }

    @Test("the date order is newest first, undated last, ties in the sources' and then the items' order")
    func dateOrderIsStable() {
        let (text, _) = spooled(SpoolSamples.edgeCases, .csv, order: .date, options: RenderOptions(), batch: 1)
        let ids = text.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",").prefix(3).joined(separator: ",") }
        #expect(ids == [
            "late,record,n2", "mixed,record,m1", "mixed,issue,i1", "late,record,n1", "late,record,n3", "mixed,issue,i2",
            "mixed,record,m2", "mixed,record,z", "late,record,u1", "late,record,u3", "mixed,record,u2",
        ])
    }

    @Test("CSV's header has the keys that appear only in the last item")
    func lateFieldKeys() {
        let (text, _) = spooled(SpoolSamples.edgeCases, .csv, order: .source, options: RenderOptions(), batch: 1)
        let header = text.split(separator: "\r\n").first.map(String.init)
        #expect(header?.hasSuffix(",late,number,repository,tags,fields.title") == true)
    }

    @Test("the table's terminal cap: the first rows of a big source, then one line telling how many more")
    func terminalCap() {
        let items = (1...7).map { Item(kind: .record, id: "\($0)", title: "row \($0)") }
        let source = SourceReport(descriptor: SampleReports.descriptor("big", "files"), status: .ok, items: items)
        let report = AggregateReport(generatedAt: SampleReports.date("2026-11-22T10:00:00Z"), sources: [source])
        for order in [ItemOrder.source, .date] {
            let options = RenderOptions(rowCap: 3)
            let (text, _) = spooled(report, .table, order: order, options: options, batch: 2)
            #expect(text == collected(report, .table, order: order, options: options))
            #expect(text.contains("row 3") && !text.contains("row 4"))
            #expect(text.hasSuffix("  … 4 more rows (use -f ndjson)\n"))
        }
        let (uncapped, _) = spooled(report, .table, order: .source, options: RenderOptions(), batch: 2)
        #expect(uncapped.contains("row 7") && !uncapped.contains("more rows"))
    }

    @Test("the cap is on for a terminal only, never for redirected output")
    func capOnlyOnTerminal() {
        #expect(RenderOptions.rowCap(stdoutIsTerminal: true) == RenderOptions.terminalRowCap)
        #expect(RenderOptions.rowCap(stdoutIsTerminal: false) == nil)
        #expect(RenderOptions.terminalRowCap >= 100)
    }

    @Test("items past a chunk go through the file and come back whole")
    func manyItems() {
        let items = (0..<3_000).map { index in
            Item(kind: .record, id: String(index), title: String(repeating: "é", count: index % 50),
                 date: index % 7 == 0 ? nil : SampleReports.date("2026-11-2\(index % 9)T10:00:00Z"),
                 fields: ["n": .int(index), "blob": .string(String(repeating: "x", count: index % 500 == 0 ? 70_000 : 3))])
        }
        let source = SourceReport(descriptor: SampleReports.descriptor("big", "files"), status: .ok, items: items)
        let report = AggregateReport(generatedAt: SampleReports.date("2026-11-22T10:00:00Z"), sources: [source])
        for order in [ItemOrder.source, .date] {
            let (text, failure) = spooled(report, .csv, order: order, options: RenderOptions(), batch: 256)
            #expect(failure == nil)
            #expect(text == collected(report, .csv, order: order, options: RenderOptions()))
        }
    }
}
