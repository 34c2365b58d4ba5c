import Domain
import Foundation

/// What a feed says about itself. Every field is optional: a one-shot run knows none of them unless the user
/// passes `--feed-title`/`--feed-link`; the server knows its own address.
public struct FeedMetadata: Sendable, Hashable {
    /// Defaults to `aggregate: ` and the ids of the sources in the report.
    public var title: String?
    /// The page the feed stands for (Atom `alternate`, RSS channel `link`, JSON Feed `home_page_url`).
    public var link: URL?
    /// Where the feed itself is served (Atom `self`, JSON Feed `feed_url`); also the Atom feed id when given.
    public var selfURL: URL?

    public init(title: String? = nil, link: URL? = nil, selfURL: URL? = nil) {
        self.title = title
        self.link = link
        self.selfURL = selfURL
    }
}

/// A report as a syndication feed: the one model the Atom, RSS and JSON Feed renderers write, so the three
/// formats agree on ids, dates and text.
///
/// Ids are stable: `urn:aggregate:<source>:<item id>` (percent-encoded), so a reader polling a file a cron job
/// rewrites sees each item once. Only items are published; a failed source's error goes to stderr as for every
/// machine format.
struct SyndicationFeed: Sendable {
    struct Entry: Sendable {
        var id: String
        var source: String
        /// The item's own id, unique within its source.
        var itemID: String
        var kind: ItemKind
        var title: String
        var url: URL?
        /// The item's own date; nil when it has none.
        var published: Date?
        /// `published`, else the feed's date, since Atom and JSON Feed readers want one.
        var updated: Date
        /// HTML as the source published it (a feed entry's content or summary).
        var html: String?
        /// Plain text for items that carry no HTML: the subtitle and the columns a table would show.
        var text: String?
        var author: String?
        var categories: [String]
    }

    var id: String
    var title: String
    var link: URL?
    var selfURL: URL?
    /// The newest entry's date; the report's time when no entry is dated.
    var updated: Date
    var entries: [Entry]

    init(_ report: AggregateReport, options: RenderOptions) {
        let metadata = options.feed
        // The sources that ran: one the manifest disables or that was skipped says nothing about this feed.
        let sourceIDs = report.sources.filter { $0.status != .skipped }.map(\.id)
        let items = report.itemsInOutputOrder(limit: options.limit)
        let newest = items.compactMap(\.item.date).max()
        let updated = newest ?? report.generatedAt
        id = metadata.selfURL?.absoluteString ?? "urn:aggregate:feed:" + Self.encode(sourceIDs.joined(separator: ","))
        title = metadata.title ?? "aggregate: " + (sourceIDs.isEmpty ? "no sources" : sourceIDs.joined(separator: ", "))
        link = metadata.link
        selfURL = metadata.selfURL
        self.updated = updated
        entries = items.map { source, item in Self.entry(item, source: source, feedDate: updated) }
    }

    /// The stable id of `item` from `source`.
    static func entryID(source: String, item: String) -> String {
        "urn:aggregate:" + encode(source) + ":" + encode(item)
    }

    private static func entry(_ item: Item, source: String, feedDate: Date) -> Entry {
        let html = (item.fields["content"] ?? item.fields["summary"])?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let categories = item.fields["categories"]?.arrayValue?.compactMap(\.stringValue)
            ?? item.fields["labels"]?.arrayValue?.compactMap { $0.stringValue ?? $0.objectValue?["name"]?.stringValue }
            ?? []
        return Entry(
            id: entryID(source: source, item: item.id), source: source, itemID: item.id, kind: item.kind, title: item.title,
            url: item.url, published: item.date, updated: item.date ?? feedDate,
            html: html, text: html == nil ? plainText(item) : nil,
            author: item.fields["author"]?.stringValue, categories: categories)
    }

    /// The subtitle, then each column the table shows for the item's kind (title and date left out: the entry
    /// carries them), one per line.
    private static func plainText(_ item: Item) -> String? {
        var lines: [String] = item.subtitle.map { [$0] } ?? []
        for column in KindColumn.columns(for: item.kind, items: CollectionOfOne(item)) where !column.isTitle && column.header != "DATE" {
            let value = column.value(item)
            guard !value.isEmpty else { continue }
            lines.append(column.header.prefix(1) + column.header.dropFirst().lowercased() + ": " + value)
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// Everything but RFC 3986's unreserved characters percent-encoded, so any id makes a valid URN.
    private static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += byte < 16 ? "%0" + hex : "%" + hex
            }
        }
        return out
    }
}
