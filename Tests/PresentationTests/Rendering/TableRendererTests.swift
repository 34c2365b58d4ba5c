import Domain
import Foundation
@testable import Presentation
import Testing

@Suite("Table renderer")
struct TableRendererTests {
    private func lines(_ report: AggregateReport, _ options: RenderOptions = RenderOptions()) -> [String] {
        TableRenderer().render(report, options).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    @Test("a status line per source, in manifest order, telling status, problems and counts")
    func statusLines() {
        let statusLines = lines(SampleReports.everyKind).filter { !$0.hasPrefix(" ") && !$0.isEmpty }
        #expect(statusLines == [
            "● notes (files) ok · 3 items",
            "● weather (openweather) ok · 2 items",
            "● issues (github) ok · 2 items",
            "✖ private (github) error · unauthorized: Bad credentials · 0 items",
            "◷ movies (tmdb) timeout · timeout: no answer within 10 s · 1 item",
            "● news (rss) ok · 1 item",
            "○ weather-us (openweather) skipped · configuration: OPENWEATHER_API_KEY is not set",
            "● empty (files) ok · 0 items",
        ])
    }

    @Test("verbose adds each source's duration")
    func verbose() {
        let text = lines(SampleReports.everyKind, RenderOptions(verbose: true))
        #expect(text.contains("● notes (files) ok · 3 items · 4 ms"))
        #expect(text.contains("● news (rss) ok · 1 item · 1.5 s"))
        #expect(text.contains("○ weather-us (openweather) skipped · configuration: OPENWEATHER_API_KEY is not set"))
    }

    @Test("warnings are listed under their source")
    func warnings() throws {
        let text = lines(SampleReports.everyKind)
        let index = try #require(text.firstIndex(of: "● weather (openweather) ok · 2 items"))
        #expect(text[index + 1] == "  ⚠ Busan: notFound: city not found")
    }

    @Test("each kind gets its own columns, with units, compact labels and right-aligned numbers")
    func kindColumns() {
        let text = lines(SampleReports.everyKind)
        #expect(text.contains("  CITY         CONDITION         TEMP  HUMIDITY     WIND"))
        #expect(text.contains("  Seoul, KR    broken clouds  21.3 °C       64%  3.6 m/s"))
        #expect(text.contains("  Incheon, KR  broken clouds    -2 °C       64%  3.6 m/s"))
        #expect(text.contains("    #  TITLE           LABELS     UPDATED"))
        #expect(text.contains("  #12  Crash on start  [bug, ui]  2026-11-21 12:30"))
        #expect(text.contains("   #7  Docs                       2026-11-21 12:30"))
        #expect(text.contains("  TITLE       YEAR  RATING"))
        #expect(text.contains("  The Matrix  1999     8.2"))
        #expect(text.contains("  TITLE  FEED          DATE"))
        #expect(text.contains("  Hello  Example Feed  2026-11-19 07:05"))
    }

    @Test("issues from several repositories are numbered with their repository")
    func qualifiedIssueNumbers() {
        let report = AggregateReport(generatedAt: SampleReports.golden.generatedAt, sources: [
            SourceReport(descriptor: SampleReports.descriptor("issues", "github"), status: .ok, items: [
                SampleReports.issue(1, "One", labels: []),
                SampleReports.issue(2, "Two", labels: ["x"], repository: "acme/lib"),
            ]),
        ])
        let text = lines(report)
        #expect(text.contains { $0.hasPrefix("  acme/app#1  One") })
        #expect(text.contains { $0.hasPrefix("  acme/lib#2  Two    [x]") })
    }

    @Test("line breaks and escape sequences in data never reach the terminal")
    func sanitised() {
        let text = TableRenderer().render(SampleReports.everyKind)
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("Buy \"milk\", eggs | bread and 日本語 café 👍"))
        let evil = Item(kind: .record, id: "e", title: "a\u{1B}[2Jb\tc\u{7}d")
        let report = AggregateReport(generatedAt: SampleReports.golden.generatedAt, sources: [
            SourceReport(descriptor: SampleReports.descriptor("e", "files"), status: .ok, items: [evil]),
        ])
        let output = TableRenderer().render(report)
        #expect(!output.contains("\u{1B}") && !output.contains("\t") && !output.contains("\u{7}"))
        #expect(output.contains("a [2Jb c d"))
    }

    @Test("with a width, every line fits and long cells end in an ellipsis", arguments: [40, 60, 100])
    func fitsWidth(width: Int) {
        let text = lines(SampleReports.everyKind, RenderOptions(width: width))
        let rows = text.filter { $0.hasPrefix("  ") && !$0.hasPrefix("  ⚠") }
        #expect(!rows.isEmpty)
        for row in rows {
            #expect(TerminalText.width(row) <= width, "\(row)")
        }
        #expect(text.contains { $0.contains("very long title") && $0.contains("…") })
        #expect(!text.contains { $0.contains("END") })
    }

    @Test("columns stay aligned when cells hold wide and combining characters")
    func alignmentWithWideCharacters() throws {
        let items = ["日本語タイトル", "e\u{301}te\u{301}", "plain"].enumerated().map { index, title in
            Item(kind: .record, id: "\(index)", title: title, date: SampleReports.date("2026-11-21"))
        }
        let report = AggregateReport(generatedAt: SampleReports.golden.generatedAt, sources: [
            SourceReport(descriptor: SampleReports.descriptor("w", "files"), status: .ok, items: items),
        ])
        let rows = lines(report).filter { $0.hasPrefix("  ") }
        #expect(rows.count == 4)
        let dateColumns = try rows.dropFirst().map { row in
            let range = try #require(row.range(of: "2026-11-21"))
            return TerminalText.width(String(row[..<range.lowerBound]))
        }
        #expect(Set(dateColumns).count == 1)
        let headerColumn = try TerminalText.width(String(rows[0][..<#require(rows[0].range(of: "DATE")).lowerBound]))
        #expect(dateColumns.first == headerColumn)
    }

    @Test("limit shows at most N items per source and says how many are hidden")
    func limitPerSource() throws {
        let text = lines(SampleReports.everyKind, RenderOptions(limit: 1))
        #expect(text.contains("● notes (files) ok · 3 items"))
        #expect(text.contains("  … 2 more"))
        #expect(text.contains("  … 1 more"))
        #expect(!text.contains { $0.contains("Incheon") })
        let zero = lines(SampleReports.everyKind, RenderOptions(limit: 0))
        #expect(!zero.contains { $0.contains("TITLE") })
    }

    @Test("colour only when asked for")
    func colour() {
        #expect(!TableRenderer().render(SampleReports.everyKind).contains("\u{1B}["))
        let coloured = TableRenderer().render(SampleReports.everyKind, RenderOptions(color: true))
        #expect(coloured.contains("\u{1B}[32m●\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[31m✖\u{1B}[0m"))
    }

    @Test("no sources, and sources without items, still print something sensible")
    func emptyCases() {
        #expect(TableRenderer().render(SampleReports.empty) == "No sources selected.\n")
        let text = lines(SampleReports.golden)
        #expect(text.suffix(3) == ["● empty (files) ok · 0 items", "  ⚠ a.csv: parse: line 3: bad row", ""])
    }

    @Test("columns narrow from the widest down to what fits")
    func fitAlgorithm() {
        #expect(TableRenderer.fit([10, 50, 4], into: 100) == [10, 50, 4])
        #expect(TableRenderer.fit([10, 50, 4], into: 34) == [10, 20, 4])
        #expect(TableRenderer.fit([30, 50, 4], into: 34) == [15, 15, 4])
        #expect(TableRenderer.fit([30, 50], into: 1) == [1, 1])
    }

    @Test("feed entries show their summary as plain text; an empty column is left out")
    func entrySummary() {
        let descriptor = SourceDescriptor(id: "news", provider: "feed", timeoutSeconds: 1, concurrency: 1)
        let entry = Item(kind: .entry, id: "1", title: "Release", subtitle: "Blog",
                         fields: ["summary": "<p>Swift <b>6.3</b> is out &amp; ready</p>"])
        let bare = Item(kind: .entry, id: "2", title: "Bare", subtitle: "Blog")
        let withSummary = AggregateReport(generatedAt: SampleReports.golden.generatedAt, sources: [
            SourceReport(descriptor: descriptor, status: .ok, items: [entry, bare])])
        let text = lines(withSummary)
        #expect(text.contains { $0.contains("SUMMARY") })
        #expect(text.contains { $0.hasSuffix("Swift 6.3 is out & ready") })
        let without = AggregateReport(generatedAt: SampleReports.golden.generatedAt, sources: [
            SourceReport(descriptor: descriptor, status: .ok, items: [bare])])
        #expect(!lines(without).contains { $0.contains("SUMMARY") })
        #expect(!lines(without).contains { $0.hasSuffix(" ") })
    }
}
