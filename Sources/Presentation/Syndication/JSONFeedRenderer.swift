import Domain
import Foundation

/// `--format jsonfeed`: the selected items as JSON Feed 1.1 (https://jsonfeed.org/version/1.1). `id` is the
/// stable entry id, `content_html` the item's HTML or else `content_text` its text, dates in RFC 3339, the
/// item's categories as `tags`, and what the format has no place for under the `_aggregate` extension
/// (`source`, `kind`, `id`: the item's own id).
public struct JSONFeedRenderer {
    public init() {}

    private func write(_ entry: SyndicationFeed.Entry, to json: inout JSONWriter) {
        json.beginObject()
        json.field("id", entry.id)
        json.field("url", entry.url?.absoluteString)
        json.field("title", entry.title)
        if let html = entry.html {
            json.field("content_html", html)
        } else {
            json.field("content_text", entry.text ?? entry.title)
        }
        json.field("date_published", entry.published.map(ISO8601.string(from:)))
        if let author = entry.author { json.authors([author]) }
        if !entry.categories.isEmpty {
            json.key("tags")
            json.beginArray()
            for category in entry.categories { json.string(category) }
            json.endArray()
        }
        json.key("_aggregate")
        json.beginObject()
        json.field("source", entry.source)
        json.field("kind", entry.kind.rawValue)
        json.field("id", entry.itemID)
        json.endObject()
        json.endObject()
    }
}

extension JSONFeedRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        let feed = SyndicationFeed(report, options: options)
        var json = JSONWriter(capacity: 64 * 1024, pretty: true)
        json.beginObject()
        json.field("version", "https://jsonfeed.org/version/1.1")
        json.field("title", feed.title)
        json.field("home_page_url", feed.link?.absoluteString)
        json.field("feed_url", feed.selfURL?.absoluteString)
        json.authors(["aggregate"])
        json.key("items")
        json.beginArray()
        for entry in feed.entries { write(entry, to: &json) }
        json.endArray()
        json.endObject()
        json.byte(UInt8(ascii: "\n"))
        output.write(json.text)
    }
}

private extension JSONWriter {
    /// `"key": "value"`, nothing when `value` is nil (JSON Feed leaves out what it does not have).
    mutating func field(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    mutating func authors(_ names: [String]) {
        key("authors")
        beginArray()
        for name in names {
            beginObject()
            field("name", name)
            endObject()
        }
        endArray()
    }
}
