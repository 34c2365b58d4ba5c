import Domain
import Foundation
import Presentation
import Testing

@Suite("Markdown renderer")
struct MarkdownRendererTests {
    @Test("prints a section per source with its status and a GitHub table of its items")
    func golden() {
        let expected = """
            # Aggregate report

            Generated at 2026-11-22T10:00:00Z.

            ## notes (files) — ok, 2 items

            | Title | Date |
            | --- | --- |
            | [Buy "milk", eggs \\| bread<br>and 日本語 café 👍](https://example.com/a?b=1) | 2026-11-20 08:00 |
            | Plain | 2026-11-21 |

            ## issues (github) — error, 0 items

            **Error (unauthorized):** Bad credentials

            ## feed (rss) — skipped, 0 items

            **Skipped:** disabled in the manifest

            ## empty (files) — ok, 0 items

            - ⚠ a.csv: parse: line 3: bad row

            _No items._

            """
        #expect(MarkdownRenderer().render(SampleReports.golden) == expected)
    }

    @Test("a run with no sources says so")
    func noSources() {
        #expect(MarkdownRenderer().render(SampleReports.empty).hasSuffix("\n_No sources._\n"))
    }

    @Test("kind-aware columns, durations when verbose, and a note for items cut by limit")
    func everyKind() {
        let text = MarkdownRenderer().render(SampleReports.everyKind, RenderOptions(limit: 2, verbose: true))
        #expect(text.contains("## notes (files) — ok, 3 items, 4 ms\n"))
        #expect(text.contains("\n_… 1 more item not shown._\n"))
        #expect(text.contains("| City | Condition | Temp | Humidity | Wind |\n| --- | --- | ---: | ---: | ---: |\n"))
        #expect(text.contains("| Seoul, KR | broken clouds | 21.3 °C | 64% | 3.6 m/s |\n"))
        #expect(text.contains("| #12 | Crash on start | \\[bug, ui\\] | 2026-11-21 12:30 |\n"))
        #expect(text.contains("| The Matrix | 1999 | 8.2 |\n"))
        #expect(text.contains("## weather-us (openweather) — skipped, 0 items\n"))
        #expect(text.contains("**Skipped (configuration):** OPENWEATHER\\_API\\_KEY is not set\n"))
    }

    @Test("data can neither break a table row nor become markup or HTML")
    func escaping() {
        let item = Item(
            kind: .record, id: "x", title: "a|b\r\nc <script>*x*</script> [l](u) `c` \u{1B}[31m",
            url: URL(string: "https://example.com/p(1)"))
        let report = AggregateReport(
            generatedAt: SampleReports.golden.generatedAt,
            sources: [SourceReport(descriptor: SampleReports.descriptor("x", "files"), status: .ok, items: [item])])
        let text = MarkdownRenderer().render(report)
        let row = "| [a\\|b<br>c &lt;script&gt;\\*x\\*&lt;/script&gt; \\[l\\](u) \\`c\\`  \\[31m]"
            + "(https://example.com/p%281%29) |  |\n"
        #expect(text.contains(row))
    }
}
