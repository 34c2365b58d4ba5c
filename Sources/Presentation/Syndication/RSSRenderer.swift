import Domain
import Foundation

/// `--format rss`: the selected items as an RSS 2.0 channel. `guid` is the stable entry id
/// (`isPermaLink="false"`), `pubDate` the item's date in RFC 822, `description` its HTML (or its text, escaped),
/// the author as `dc:creator` (RSS's own `author` wants an e-mail address) and the source as a category in the
/// `urn:aggregate:source` domain.
///
/// RSS requires a channel link; without `--feed-link` it is the site of the first item that has a URL.
public struct RSSRenderer {
    public init() {}

    private func write(_ entry: SyndicationFeed.Entry, to xml: inout XMLOutput) {
        xml.open("item")
        xml.element("title", entry.title)
        if let url = entry.url { xml.element("link", url.absoluteString) }
        if let html = entry.html ?? entry.text.map(Self.html(fromText:)) { xml.element("description", html) }
        xml.element("guid", entry.id, ["isPermaLink": "false"])
        if let published = entry.published { xml.element("pubDate", RFC822Date.string(from: published)) }
        if let author = entry.author { xml.element("dc:creator", author) }
        xml.element("category", entry.source, ["domain": AtomRenderer.sourceScheme])
        for category in entry.categories { xml.element("category", category) }
        xml.close("item")
    }

    /// Plain text as HTML, since readers treat `description` as HTML: escaped, line breaks kept.
    static func html(fromText text: String) -> String {
        XMLOutput.escape(text, quotes: false).replacingOccurrences(of: "\n", with: "<br>\n")
    }

    /// The channel's link: the one given, else the first item's site (scheme and host), else the loopback.
    private static func channelLink(_ feed: SyndicationFeed) -> String {
        if let link = feed.link { return link.absoluteString }
        for entry in feed.entries {
            guard let url = entry.url, let scheme = url.scheme, let host = url.host,
                  scheme == "http" || scheme == "https" else { continue }
            return scheme + "://" + (host.contains(":") ? "[\(host)]" : host) + "/"
        }
        return "http://localhost/"
    }
}

extension RSSRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        let feed = SyndicationFeed(report, options: options)
        var xml = XMLOutput()
        xml.open("rss", [
            "version": "2.0", "xmlns:atom": "http://www.w3.org/2005/Atom",
            "xmlns:dc": "http://purl.org/dc/elements/1.1/",
        ])
        xml.open("channel")
        xml.element("title", feed.title)
        xml.element("link", Self.channelLink(feed))
        xml.element("description", feed.title)
        xml.element("lastBuildDate", RFC822Date.string(from: feed.updated))
        xml.element("generator", "aggregate")
        if let selfURL = feed.selfURL {
            xml.element("atom:link", nil, [
                "rel": "self", "type": "application/rss+xml", "href": selfURL.absoluteString,
            ])
        }
        for entry in feed.entries { write(entry, to: &xml) }
        xml.close("channel")
        xml.close("rss")
        output.write(xml.text)
    }
}
