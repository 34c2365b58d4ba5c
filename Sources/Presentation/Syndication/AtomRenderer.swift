import Domain
import Foundation

/// `--format atom`: the selected items as an Atom 1.0 feed (RFC 4287). Entry ids are stable
/// (`urn:aggregate:<source>:<item id>`); `updated` is the item's date. An entry without a link carries its text
/// as `content`, as the RFC asks; every entry names its source as a category with the `urn:aggregate:source`
/// scheme.
public struct AtomRenderer {
    public init() {}

    static let sourceScheme = "urn:aggregate:source"

    private func write(_ entry: SyndicationFeed.Entry, to xml: inout XMLOutput) {
        xml.open("entry")
        xml.element("id", entry.id)
        xml.element("title", entry.title)
        if let url = entry.url { xml.element("link", nil, ["rel": "alternate", "href": url.absoluteString]) }
        if let published = entry.published { xml.element("published", ISO8601.string(from: published)) }
        xml.element("updated", ISO8601.string(from: entry.updated))
        if let author = entry.author {
            xml.open("author")
            xml.element("name", author)
            xml.close("author")
        }
        xml.element("category", nil, ["term": entry.source, "scheme": Self.sourceScheme])
        for category in entry.categories { xml.element("category", nil, ["term": category]) }
        if let html = entry.html {
            xml.element("content", html, ["type": "html"])
        } else if let text = entry.text ?? (entry.url == nil ? entry.title : nil) {
            xml.element("content", text, ["type": "text"])
        }
        xml.close("entry")
    }
}

extension AtomRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        let feed = SyndicationFeed(report, options: options)
        var xml = XMLOutput()
        xml.open("feed", ["xmlns": "http://www.w3.org/2005/Atom"])
        xml.element("id", feed.id)
        xml.element("title", feed.title)
        xml.element("updated", ISO8601.string(from: feed.updated))
        // The RFC wants an author on the feed unless every entry has one.
        xml.open("author")
        xml.element("name", "aggregate")
        xml.close("author")
        xml.element("generator", "aggregate")
        if let selfURL = feed.selfURL {
            xml.element("link", nil, ["rel": "self", "type": "application/atom+xml", "href": selfURL.absoluteString])
        }
        if let link = feed.link { xml.element("link", nil, ["rel": "alternate", "href": link.absoluteString]) }
        for entry in feed.entries { write(entry, to: &xml) }
        xml.close("feed")
        output.write(xml.text)
    }
}
