/// Writes an OPML 2.0 subscription list that feed readers import (Miniflux, FreshRSS, NetNewsWire, Feedly).
///
/// A feed with categories sits in a folder outline named after its first one, as readers show folders; all its
/// categories are also in its `category` attribute (OPML 2.0), so nothing is lost to a reader that nests only one
/// level. Feeds keep their order; folders appear where their first feed would.
public enum OPMLWriter {
    public static func write(title: String, feeds: [OPMLFeed]) -> String {
        var out: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n    <title>".utf8)
        FeedText.appendEscaped(title, to: &out)
        out += Array("</title>\n  </head>\n  <body>\n".utf8)
        var folders: [String] = []
        var byFolder: [String: [OPMLFeed]] = [:]
        var order: [(folder: String?, feed: OPMLFeed?)] = []
        for feed in feeds {
            guard let folder = feed.categories.first else {
                order.append((nil, feed))
                continue
            }
            if byFolder[folder] == nil {
                folders.append(folder)
                order.append((folder, nil))
            }
            byFolder[folder, default: []].append(feed)
        }
        for entry in order {
            if let feed = entry.feed {
                outline(feed, indent: "    ", to: &out)
            } else if let folder = entry.folder {
                out += Array("    <outline text=\"".utf8)
                FeedText.appendEscaped(folder, to: &out, quotes: true)
                out += Array("\" title=\"".utf8)
                FeedText.appendEscaped(folder, to: &out, quotes: true)
                out += Array("\">\n".utf8)
                for feed in byFolder[folder] ?? [] { outline(feed, indent: "      ", to: &out) }
                out += Array("    </outline>\n".utf8)
            }
        }
        out += Array("  </body>\n</opml>\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    private static func outline(_ feed: OPMLFeed, indent: String, to out: inout [UInt8]) {
        let title = feed.title ?? feed.url
        var attributes: [(String, String)] = [("type", "rss"), ("text", title), ("title", title), ("xmlUrl", feed.url)]
        if let site = feed.siteURL { attributes.append(("htmlUrl", site)) }
        // A category holding a comma would read back as two: it stays the folder only.
        let categories = feed.categories.filter { !$0.contains(",") }
        if !categories.isEmpty { attributes.append(("category", categories.joined(separator: ","))) }
        out += Array("\(indent)<outline".utf8)
        for (name, value) in attributes {
            out += Array(" \(name)=\"".utf8)
            FeedText.appendEscaped(value, to: &out, quotes: true)
            out.append(UInt8(ascii: "\""))
        }
        out += Array("/>\n".utf8)
    }
}
