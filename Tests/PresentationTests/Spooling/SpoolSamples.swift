import Domain
import Foundation

/// Reports for the spooled output's golden tests: what the collecting renderers must agree with it on.
enum SpoolSamples {
    private static func day(_ day: Int) -> Date { SampleReports.date("2026-11-\(day)T00:00:00Z") }

    private static func record(_ id: String, _ title: String, _ date: Date?, fields: JSONObject = [:]) -> Item {
        Item(kind: .record, id: id, title: title, date: date, fields: fields)
    }

    private static func issue(_ id: String, _ title: String, _ date: Date?, repository: String) -> Item {
        Item(kind: .issue, id: id, title: title, url: URL(string: "https://example.com/\(id)"), date: date,
             fields: ["number": .int(id.count), "repository": .string(repository), "tags": ["x|y", "東京"]])
    }

    /// Equal dates and undated items across two sources, mixed kinds in one source (the table's runs change
    /// with the date order), issues from two repositories, wide and combining characters, a field key only the
    /// last item has (CSV), a field named like a fixed column, a failed source with warnings, a skipped one.
    static let edgeCases = AggregateReport(
        generatedAt: SampleReports.date("2026-11-22T10:00:00Z"),
        sources: [
            SourceReport(
                descriptor: SampleReports.descriptor("late", "files"), status: .ok,
                items: [
                    record("n1", "東京 ラーメン 👍🏽", day(20), fields: ["title": .string("own title")]),
                    record("u1", "café naïve (e\u{301})", nil),
                    record("n2", SampleReports.trickyTitle, day(22)),
                    record("n3", "tab\there", day(20)),
                    record("u3", "", nil),
                ],
                warnings: ["a warning with 日本語"], duration: 0.01),
            SourceReport(
                descriptor: SampleReports.descriptor("down", "github"), status: .error,
                warnings: ["rate limit low"], error: SourceError(.unauthorized, "Bad credentials"), duration: 0.2),
            SourceReport(descriptor: SampleReports.descriptor("off", "rss"), status: .skipped, message: "disabled"),
            SourceReport(
                descriptor: SampleReports.descriptor("mixed", "exec"), status: .ok,
                items: [
                    record("m1", "first", day(21)),
                    issue("i1", "Crash | on start", day(21), repository: "acme/app"),
                    issue("i2", "Docs", day(20), repository: "acme/lib"),
                    record("m2", "second", day(20)),
                    record("u2", "undated", nil),
                    record("z", "last", day(19), fields: ["late": .double(0.1)]),
                ],
                duration: 0.3),
        ])
}
