import Domain
import Foundation
import Presentation
import Testing

@Suite("--template: Mustache over the report")
struct ReportTemplateTests {
    private let now = SampleReports.date("2026-11-22T10:00:00Z")

    private func render(_ text: String, limit: Int? = nil) throws -> String {
        try ReportTemplate(text).render(SampleReports.golden, options: RenderOptions(limit: limit), now: now)
    }

    @Test("a one-line-per-item digest with the date and padding helpers")
    func digest() throws {
        let text = try render("{{#items}}{{pad10(relative(date))}}|{{padLeft6(source)}}|{{{truncate12(title)}}}|{{day(date)}}\n{{/items}}")
        #expect(text == """
            2 d ago   | notes|Buy "milk",…|2026-11-20
            1 d ago   | notes|Plain|2026-11-21

            """)
    }

    @Test("sources with their status and errors; absent values are empty and falsy")
    func sources() throws {
        let text = try render("{{#sources}}{{id}}={{status}}{{#error}} ({{kind}}: {{message}}){{/error}}{{^error}}.{{/error}};{{/sources}}")
        #expect(text == "notes=ok.;issues=error (unauthorized: Bad credentials);feed=skipped.;empty=ok.;")
    }

    @Test("{{x}} escapes HTML, {{{x}}} does not; fields and iso dates")
    func escaping() throws {
        let text = try render("{{#items}}{{title}}|{{{fields.count}}}|{{iso(date)}}{{/items}}", limit: 1)
        #expect(text == "Buy &quot;milk&quot;, eggs | bread\nand 日本語 café 👍|3|2026-11-20T08:00:00Z")
    }

    static let relativeCases: [(seconds: Double, text: String)] = [
        (30, "just now"), (300, "5 min ago"), (3 * 3600 + 59, "3 h ago"), (2 * 86_400, "2 d ago"), (-4 * 3600, "in 4 h"),
    ]

    @Test("relative dates", arguments: relativeCases)
    func relative(_ pair: (seconds: Double, text: String)) throws {
        var report = SampleReports.empty
        report.sources = [SourceReport(descriptor: SampleReports.descriptor("a", "files"), status: .ok,
                                       items: [Item(kind: .record, id: "1", title: "t", date: now.addingTimeInterval(-pair.0))])]
        #expect(try ReportTemplate("{{#items}}{{relative(date)}}{{/items}}").render(report, options: RenderOptions(), now: now) == pair.1)
    }

    @Test("a syntax error points at its line and column")
    func syntaxError() {
        let problem = #expect(throws: ReportTemplate.Problem.self) {
            try ReportTemplate("header\n{{#items}}\n  {{title}\n{{/items}}")
        }
        #expect(problem?.line == 3)
        #expect(problem?.description.contains("template line 3") == true)
        #expect(problem?.description.contains("  {{title}") == true)
    }

    @Test("an unclosed section and a wrong closing tag are reported at their line")
    func sections() {
        let unclosed = #expect(throws: ReportTemplate.Problem.self) { try ReportTemplate("a\nb\n{{#items}}x") }
        #expect(unclosed?.message.contains("never closed") == true)
        let wrong = #expect(throws: ReportTemplate.Problem.self) { try ReportTemplate("{{#items}}\n{{/sources}}") }
        #expect(wrong?.line == 2)
    }

    @Test("an unknown helper is an error at its line, not an empty string")
    func unknownHelper() {
        let problem = #expect(throws: ReportTemplate.Problem.self) {
            try ReportTemplate("ok {{title}}\n{{#items}}{{truncat40(title)}}{{/items}}")
        }
        #expect(problem?.line == 2)
        #expect(problem?.column == 11)
        #expect(problem?.message.contains("unknown helper 'truncat40'") == true)
    }
}
