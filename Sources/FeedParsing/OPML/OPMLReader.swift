import CLibXML2
import CLibXML2OnDemand
import Foundation

/// A feed an OPML subscription list names.
public struct OPMLFeed: Sendable, Hashable {
    /// The outline's `title`, else its `text`.
    public var title: String?
    /// `xmlUrl`, as written.
    public var url: String
    /// `htmlUrl`: the site the feed belongs to.
    public var siteURL: String?
    /// The folders the outline sits in (outermost first), then its own `category` attribute's entries.
    public var categories: [String]
    /// Every attribute of the outline by lowercased local name (`type`, FreshRSS's `frss:xPathItem` as
    /// `xpathitem`), for readers' extensions.
    public var attributes: [String: String]

    public init(
        title: String?, url: String, siteURL: String? = nil, categories: [String] = [], attributes: [String: String] = [:]
    ) {
        self.title = title
        self.url = url
        self.siteURL = siteURL
        self.categories = categories
        self.attributes = attributes
    }
}

/// An OPML document's title and feeds, in document order.
public struct OPMLDocument: Sendable, Hashable {
    public var title: String?
    public var feeds: [OPMLFeed]
    /// Outlines that say they are feeds (`type="rss"` or `"atom"`) but have no `xmlUrl`, and no outlines inside
    /// (which would make them folders): nothing can be read from them, and an import names each one.
    public var feedsWithoutURL: [OPMLOutline]

    public init(title: String?, feeds: [OPMLFeed], feedsWithoutURL: [OPMLOutline] = []) {
        self.title = title
        self.feeds = feeds
        self.feedsWithoutURL = feedsWithoutURL
    }
}

/// An outline as a person finds it in their reader: its title and the folders it sits in.
public struct OPMLOutline: Sendable, Hashable, CustomStringConvertible {
    /// The outline's `title`, else its `text`.
    public var title: String?
    /// The folders around it, outermost first.
    public var folders: [String]
    /// Its `type` attribute, as written.
    public var type: String

    public init(title: String?, folders: [String], type: String) {
        self.title = title
        self.folders = folders
        self.type = type
    }

    public var description: String {
        let name = title.map { "'\($0)'" } ?? "(untitled)"
        return folders.isEmpty ? name : "\(name) in \(folders.joined(separator: " / "))"
    }
}

/// Why a file is no OPML: libxml2's message and where it stopped.
public struct OPMLError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var line: Int?
    public var column: Int?

    public init(_ message: String, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        guard let line else { return message }
        return "line \(line)\(column.map { ", column \($0)" } ?? ""): \(message)"
    }
}

/// Reads OPML 1.0/2.0 subscription lists (the export of every feed reader) with libxml2's XML parser.
///
/// Strict XML: a file that is not well-formed is an `OPMLError` with libxml2's message, line and column, never a
/// partial list. No network, no DTD, no entity substitution beyond XML's own and libxml2's amplification limit.
/// Every `<outline>` with an `xmlUrl` is a feed wherever it sits; an outline without one is a folder whose title
/// becomes a category of the feeds inside it (nested folders give one category each, as Feedly's and Inoreader's
/// exports nest them).
public enum OPMLReader {
    static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

    public static func read(_ data: Data) throws(OPMLError) -> OPMLDocument {
        guard !data.isEmpty else { throw OPMLError("the file is empty") }
        _ = LibXML2PushParser.initialized
        let saved = aggregate_xml_silence_generic_errors()
        defer { aggregate_xml_restore_generic_errors(saved) }
        xmlResetLastError()
        let document = data.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: CChar.self) { chars in
                xmlReadMemory(chars.baseAddress, Int32(chars.count), "opml.xml", nil, options)
            }
        }
        guard let document else {
            guard let error = xmlGetLastError() else { throw OPMLError("not an XML document") }
            let message = error.pointee.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines)
            throw OPMLError(message ?? "not an XML document", line: Int(error.pointee.line), column: Int(error.pointee.int2))
        }
        defer { xmlFreeDoc(document) }
        var root = document.pointee.children
        while let node = root, node.pointee.type != XML_ELEMENT_NODE { root = node.pointee.next }
        guard let root, name(of: root) == "opml" else {
            throw OPMLError("not an OPML document (root element <\(root.map(name) ?? "none")>)")
        }
        var title: String?
        var found = Found()
        for child in children(of: root) {
            switch name(of: child) {
            case "head":
                if let element = children(of: child).first(where: { name(of: $0) == "title" }) {
                    title = nonEmpty(LibXMLNode.text(element))
                }
            case "body":
                collect(children(of: child), folders: [], into: &found)
            default:
                break
            }
        }
        return OPMLDocument(title: title, feeds: found.feeds, feedsWithoutURL: found.withoutURL)
    }

    /// Outline types that mean "a feed" (OPML 2.0 says `rss` for every feed; some exports write `atom`).
    private static let feedTypes: Set<String> = ["rss", "atom"]

    private struct Found {
        var feeds: [OPMLFeed] = []
        var withoutURL: [OPMLOutline] = []
    }

    private static func collect(_ nodes: [xmlNodePtr], folders: [String], into found: inout Found) {
        for node in nodes where name(of: node).lowercased() == "outline" {
            let attributes = self.attributes(of: node)
            let title = nonEmpty(attributes["title"]) ?? nonEmpty(attributes["text"])
            let inner = children(of: node)
            if nonEmpty(attributes["xmlurl"]) == nil, let type = attributes["type"],
               feedTypes.contains(type.trimmingCharacters(in: .whitespaces).lowercased()),
               !inner.contains(where: { name(of: $0).lowercased() == "outline" }) {
                found.withoutURL.append(OPMLOutline(title: title, folders: folders, type: type))
            }
            if let url = nonEmpty(attributes["xmlurl"]) {
                let own = (attributes["category"] ?? "").split(separator: ",").compactMap { category in
                    nonEmpty(category.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "/")))
                }
                var categories = folders
                for category in own where !categories.contains(category) { categories.append(category) }
                found.feeds.append(OPMLFeed(
                    title: title, url: url, siteURL: nonEmpty(attributes["htmlurl"]), categories: categories, attributes: attributes))
            }
            if !inner.isEmpty {
                collect(inner, folders: folders + (attributes["xmlurl"] == nil ? [title].compactMap { $0 } : []), into: &found)
            }
        }
    }

    /// Attributes by lowercased name (`xmlUrl`, `xmlurl` and `XMLURL` are all seen in the wild).
    private static func attributes(of node: xmlNodePtr) -> [String: String] {
        var result: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            if let name = current.pointee.name {
                let key = String(cString: name).lowercased()
                if result[key] == nil {
                    result[key] = current.withMemoryRebound(to: xmlNode.self, capacity: 1) { LibXMLNode.text($0) }
                }
            }
            attribute = current.pointee.next
        }
        return result
    }

    private static func children(of node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    private static func name(of node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}
