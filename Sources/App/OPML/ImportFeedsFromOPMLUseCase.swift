import Domain
import FeedParsing
import ProviderKit
import Foundation

/// `aggregate import opml`: an OPML subscription list turned into `feed` sources, printed as a manifest or
/// merged into one.
///
/// One source per feed outline, in document order. Ids are made from the titles (lowercase letters, digits and
/// `-`, unique within the manifest: `hacker-news`, `hacker-news-2`); a feed without a title is named after its
/// host. Folders and `category` attributes become the source's `tags` option, which every item then carries. A
/// feed whose URL the list or the manifest already has is skipped with a note, never added twice.
public struct ImportFeedsFromOPMLUseCase {
    /// What an import produced: the new sources, the whole manifest to write, and what a person should know.
    public struct Outcome: Sendable {
        /// The manifest as text: the imported sources alone, or merged into the existing manifest.
        public var manifest: String
        /// The new sources' ids, in order.
        public var added: [String]
        /// Duplicates skipped and other notes, one a line, for stderr.
        public var notes: [String]
    }

    /// Outline types read as feeds: what readers write for RSS, Atom and RDF (and none at all).
    static let feedTypes: Set<String> = ["rss", "atom", "rdf", "feed", "link", ""]

    public init() {}

    /// Reads `opml` and returns a manifest holding its feeds; with `existing` (a manifest's bytes), that manifest
    /// with them appended.
    public func run(opml: Data, existing: Data? = nil) throws(ImportError) -> Outcome {
        let document: OPMLDocument
        do throws(OPMLError) {
            document = try OPMLReader.read(opml)
        } catch {
            throw .opml(error)
        }
        var manifest = try existing.map { data throws(ImportError) in try ManifestDocument(data) } ?? ManifestDocument()
        var takenIDs = manifest.sourceIDs
        var knownURLs = manifest.feedURLs
        var added: [String] = []
        var notes: [String] = []
        for feed in document.feeds {
            let key = FeedURLKey.make(feed.url)
            if let owner = knownURLs[key] {
                notes.append("skipped \(feed.url): already the feed of source '\(owner)'")
                continue
            }
            guard let url = URL(string: feed.url), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host?.isEmpty == false
            else {
                notes.append("skipped '\(feed.url)' (\(feed.title ?? "untitled")): not an http:// or https:// feed URL")
                continue
            }
            let type = feed.attributes["type"]?.lowercased() ?? "rss"
            let scraping = FreshRSSScraping(feed)
            if scraping == nil, !Self.feedTypes.contains(type) {
                notes.append("skipped \(feed.url) (\(feed.title ?? "untitled")): an outline of type '\(feed.attributes["type"] ?? "")', which aggregate cannot read")
                continue
            }
            let id = SourceIDMaker.make(from: feed.title, url: url, taken: &takenIDs)
            knownURLs[key] = id
            var options: [JSONObject.Member] = [("urls", .array([.string(feed.url)]))]
            if let scraping {
                options += scraping.options
                notes += scraping.notes.map { "\(id): \($0)" }
            }
            if !feed.categories.isEmpty { options.append(("tags", .array(feed.categories.map(JSONValue.string)))) }
            manifest.appendSource(id: id, provider: scraping == nil ? "feed" : "html", options: JSONObject(members: options))
            added.append(id)
        }
        for outline in document.feedsWithoutURL {
            notes.append("skipped \(outline): an outline of type '\(outline.type)' without an xmlUrl, so no feed to read")
        }
        if document.feeds.isEmpty { notes.append("the OPML file names no feeds (no outline has an xmlUrl)") }
        return Outcome(manifest: manifest.text, added: added, notes: notes)
    }

    /// Why nothing was imported.
    public enum ImportError: Error, Sendable, CustomStringConvertible {
        case opml(OPMLError)
        /// The manifest to merge into cannot be read as one.
        case manifest(String)

        public var description: String {
            switch self {
            case .opml(let error): "not a readable OPML file: \(error)"
            case .manifest(let reason): reason
            }
        }
    }
}

/// Ids for imported sources: what the manifest accepts (`^[a-z0-9-]+$`), readable, and unique.
enum SourceIDMaker {
    static let maxLength = 48

    static func make(from title: String?, url: URL, taken: inout Set<String>) -> String {
        var base = slug(title ?? "")
        if base.isEmpty { base = slug(url.host ?? "") }
        if base.isEmpty { base = "feed" }
        var id = base
        var number = 2
        while taken.contains(id) {
            id = "\(base)-\(number)"
            number += 1
        }
        taken.insert(id)
        return id
    }

    /// Lowercase ASCII letters and digits, accents folded (`Café` → `cafe`), every other run as one `-`.
    static func slug(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
        var result = ""
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
                if pendingDash, !result.isEmpty { result.append("-") }
                pendingDash = false
                result.unicodeScalars.append(scalar)
                if result.count >= maxLength { break }
            } else {
                pendingDash = true
            }
        }
        return result
    }
}

/// Feed URLs compared as the same feed: scheme and host in any case, a default port or a trailing slash or not.
enum FeedURLKey {
    static func make(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard var components = URLComponents(string: trimmed) else { return trimmed }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if (components.scheme == "http" && components.port == 80) || (components.scheme == "https" && components.port == 443) {
            components.port = nil
        }
        if components.path.count > 1, components.path.hasSuffix("/") { components.path.removeLast() }
        if components.path.isEmpty { components.path = "/" }
        return components.string ?? trimmed
    }
}

extension ImportFeedsFromOPMLUseCase {
    /// Merges the feeds of `opml` into the manifest at `url` (a new one when there is no file), and replaces the
    /// file only if the result is a valid manifest: it is written beside the old one, loaded as `aggregate` would
    /// load it, then renamed over it, so a failed import leaves the manifest as it was.
    public func merge(opml: Data, intoManifestAt url: URL) throws(ImportError) -> Outcome {
        let existing: Data?
        if FileManager.default.fileExists(atPath: url.path) {
            do {
                existing = try Data(contentsOf: url)
            } catch {
                throw .manifest("\(url.path) cannot be read")
            }
        } else {
            existing = nil
        }
        let outcome = try run(opml: opml, existing: existing)
        let staged = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).import-\(getpid())")
        do {
            try Data(outcome.manifest.utf8).write(to: staged)
        } catch {
            throw .manifest("cannot write beside \(url.path): \((error as NSError).localizedDescription)")
        }
        do throws(ManifestError) {
            _ = try AppDIContainer.load(manifestAt: staged)
        } catch {
            try? FileManager.default.removeItem(at: staged)
            let problems = error.problems.map { "  \($0)" }.joined(separator: "\n")
            throw .manifest("the manifest would be invalid after the import, so it was left as it was:\n\(problems)")
        }
        if rename(staged.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: staged)
            throw .manifest("cannot replace \(url.path): \(String(cString: strerror(errno)))")
        }
        return outcome
    }
}

/// FreshRSS's "HTML + XPath" sources (`type="HTML+XPath"` with `frss:xPath…` attributes, its OPML extension) as
/// options of the `html` provider, which reads pages the same way.
struct FreshRSSScraping {
    var options: [JSONObject.Member]
    var notes: [String]

    /// Which FreshRSS attribute fills which field.
    private static let fields: [(attribute: String, field: String)] = [
        ("xpathitemtitle", "title"), ("xpathitemuri", "link"), ("xpathitemtimestamp", "date"),
        ("xpathitemcontent", "summary"), ("xpathitemthumbnail", "image"), ("xpathitemuid", "id"),
    ]

    init?(_ feed: OPMLFeed) {
        guard feed.attributes["type"]?.lowercased() == "html+xpath", let items = feed.attributes["xpathitem"], !items.isEmpty
        else { return nil }
        var fields: [JSONObject.Member] = []
        for (attribute, field) in Self.fields {
            if let expression = feed.attributes[attribute], !expression.isEmpty { fields.append((field, .string(expression))) }
        }
        options = [("items", .string(items))]
        if !fields.isEmpty { options.append(("fields", .object(JSONObject(members: fields)))) }
        notes = []
        if feed.attributes["xpathitemtimeformat"].map({ !$0.isEmpty }) == true {
            notes.append("its date format is PHP's (frss:xPathItemTimeFormat); set dateFormat in the Unicode pattern syntax")
        }
    }
}
