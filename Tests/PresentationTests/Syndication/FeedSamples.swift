import Domain
import Foundation

/// Reports for the feed renderers: every kind of item, HTML summaries, items without a link or a date,
/// characters XML 1.0 forbids, ids that need percent-encoding, a failed and a skipped source.
enum FeedSamples {
    static let feedEntry = Item(
        kind: .entry, id: "https://news.example.org/?p=42#x", title: "Kernel 7.0 & <friends> released",
        subtitle: "Example News", url: URL(string: "https://news.example.org/2026/11/kernel?utm_source=rss&a=1"),
        date: SampleReports.date("2026-11-24T18:05:00Z"),
        fields: ["summary": "<p>It is <b>out</b> &amp; stable.</p>", "author": "Ada Lovelace",
                 "categories": ["linux", "releases"]])

    static let controlCharacters = Item(
        kind: .record, id: "ctl", title: "Bell\u{7} and escape\u{1B}[0m in a title \u{FFFF}",
        date: SampleReports.date("2026-11-23T00:00:00Z"), fields: ["note": "form feed \u{C} here"])

    static let undatedNoLink = Item(kind: .record, id: "id with spaces/and:colons", title: "No link, no date")

    static let report = AggregateReport(
        generatedAt: SampleReports.date("2026-11-25T09:00:00Z"),
        sources: [
            SourceReport(descriptor: SampleReports.descriptor("news", "feed"), status: .ok,
                         items: [feedEntry], duration: 0.01),
            SampleReports.everyKind.sources[0],
            SampleReports.everyKind.sources[1],
            SourceReport(descriptor: SampleReports.descriptor("issues", "github"), status: .ok,
                         items: [SampleReports.issue(7, "Crash on <empty> input", labels: ["bug", "p1"])],
                         duration: 0.02),
            SourceReport(descriptor: SampleReports.descriptor("odd", "files"), status: .ok,
                         items: [controlCharacters, undatedNoLink], duration: 0.001),
            SourceReport(descriptor: SampleReports.descriptor("broken", "github"), status: .error,
                         error: SourceError(.unauthorized, "Bad credentials"), duration: 0.03),
            SourceReport(descriptor: SampleReports.descriptor("off", "feed"), status: .skipped,
                         message: "disabled in the manifest"),
        ])

    /// Every item the feeds must carry, with its source, in output order.
    static var expected: [(source: String, item: Item)] { report.itemsInOutputOrder() }

    /// The stable entry id: `urn:aggregate:<source>:<item id>`, percent-encoded.
    static func entryID(_ source: String, _ item: Item) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return "urn:aggregate:\(encode(source)):\(encode(item.id))"
    }

    /// A title as a reader gives it back: the characters XML 1.0 forbids dropped, outer spaces trimmed.
    static func xmlTitle(_ title: String) -> String {
        String(String.UnicodeScalarView(title.unicodeScalars.filter { scalar in
            !(scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
                && scalar != "\u{FFFE}" && scalar != "\u{FFFF}"
        })).trimmingCharacters(in: .whitespaces)
    }
}
