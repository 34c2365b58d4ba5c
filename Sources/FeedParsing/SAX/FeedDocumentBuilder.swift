import Domain
import Foundation

/// Builds a `Feed` from SAX events, without a tree: one pass, memory bounded by one entry.
///
/// Structure: a frame per open element records what it was for (a container such as channel or entry, a
/// field whose text is captured, markup inside an HTML field, or nothing); `xml:base` and namespace
/// declarations push scopes only on the elements that carry them. Element names are classified once per
/// distinct qualified name (cached until the namespace bindings change).
///
/// A struct driven by `FeedSAXHandler`, so one SAX event costs one exclusivity check, not one per field.
struct FeedDocumentBuilder {
    /// A parse error libxml2 reported (the first one), with where it was.
    struct ReportedError {
        var code: Int
        var line: Int
        var column: Int
    }

    enum StopReason { case enoughEntries, cancelled, consumerStopped, notAFeed(String) }

    private enum Context { case rssRoot, rdfRoot, channel, entry, author, skip }

    private enum Field {
        case feedTitle, feedLink, feedAuthorName
        case title, dcTitle, link, guid, atomID, summary, dcDescription, content, author, authorName, authorEmail,
            category, published(rank: Int), updated(rank: Int)

        var isHTML: Bool {
            switch self {
            case .summary, .content, .dcDescription, .title, .feedTitle: true
            default: false
            }
        }
    }

    private enum Role { case passive, container(Context), field(Field), markup(wrapper: Bool) }

    private struct Frame {
        var role: Role
        var pushedBase = false
        var pushedNamespaces = false
    }

    private struct Capture {
        var field: Field
        var depth: Int
        var isHTML: Bool
        /// Atom `type="xhtml"`: the text is markup, so text nodes are escaped back, and the wrapping
        /// `<div>` is not part of the value.
        var isXHTML: Bool
    }

    // MARK: - Results

    private(set) var format: FeedFormat?
    private(set) var rootClosed = false
    private(set) var firstError: ReportedError?
    private(set) var entityLimitExceeded: ReportedError?
    /// The input ended inside an element, a CDATA section or a comment: a truncated document.
    private(set) var endedEarly: ReportedError?
    private(set) var stopReason: StopReason?
    private(set) var feedTitle: String?
    private(set) var feedLink: URL?
    /// The site link, or else the feed's own URL.
    var siteLink: URL? { feedLink ?? selfLink }
    private(set) var entries: [FeedEntry] = []

    // MARK: - State

    private let maxEntries: Int
    /// When set, entries go here as they close (false stops the parse) instead of into `entries`.
    var onEntry: ((FeedEntry) -> Bool)?
    private(set) var entryCount = 0
    private let cancellation: CancellationToken?
    private let documentURL: URL?
    private var frames: [Frame] = []
    private var contexts: [Context] = []
    private var skipDepth = 0
    /// `xml:base` values in scope, innermost last, as written (resolved on demand: most feeds have none).
    private var bases: [String] = []
    private var resolvedBase: URL??
    /// The feed's own URL as it states it (`atom:link rel="self"`).
    private var selfLink: URL?
    private var prefixes: [String: String] = [:]
    private var savedPrefixes: [[String: String]] = []
    private var classified: [String: FeedElement] = [:]
    private var recentNames: [(String, FeedElement)] = []
    private var atomDocument = false
    private var capture: Capture?
    private var buffer = ""
    private var singleText: String?
    private var entry: EntryBuilder?
    private var feedAuthor: String?
    private var hasDeclaredPrefixes = false

    init(maxEntries: Int, cancellation: CancellationToken?, documentURL: URL?) {
        self.maxEntries = maxEntries
        self.cancellation = cancellation
        self.documentURL = documentURL
    }

    /// What relative references resolve against: the `xml:base` chain over the document's URL. A local
    /// file's own path makes a poor base for a feed's links, so there the feed's stated URL (`rel="self"`)
    /// or its site link comes first.
    private var currentBase: URL? {
        mutating get {
        if let resolvedBase { return resolvedBase }
        var base: URL?
        if let documentURL, documentURL.scheme == "http" || documentURL.scheme == "https" {
            base = documentURL
        } else {
            base = selfLink ?? feedLink.flatMap { $0.scheme == "http" || $0.scheme == "https" ? $0 : nil } ?? documentURL
        }
        for value in bases { base = FeedText.url(value, base: base) ?? base }
        resolvedBase = .some(base)
        return base
        }
    }

    // MARK: - Elements

    /// Returns false when parsing should stop (not a feed).
    mutating func startElement(_ elementName: String, attributes: [String: String]) -> Bool {
        var frame = Frame(role: .passive)
        if !attributes.isEmpty {
            frame.pushedNamespaces = declareNamespaces(attributes)
            if let base = attributes["xml:base"] {
                bases.append(base)
                resolvedBase = nil
                frame.pushedBase = true
            }
        }
        if let capture {
            frame.role = .markup(wrapper: capture.isXHTML && frames.count == capture.depth)
            if capture.isHTML, case .markup(false) = frame.role { appendStartTag(elementName, attributes) }
            frames.append(frame)
            return true
        }
        if skipDepth > 0 {
            frames.append(frame)
            return true
        }
        let element = classify(elementName)
        if frames.isEmpty {
            frame.role = startRoot(element, name: elementName)
            if stopReason != nil { return false }
        } else {
            frame.role = role(of: element, attributes: attributes)
            if stopReason != nil { return false }
        }
        frames.append(frame)
        switch frame.role {
        case .container(let context):
            contexts.append(context)
            if context == .skip { skipDepth = frames.count }
            if context == .entry {
                entry = EntryBuilder()
                entry?.rdfAbout = attributes["rdf:about"] ?? attributes["about"]
            }
        case .field(let field):
            let type = attributes["type"]
            let isXHTML = type == "xhtml" || type == "application/xhtml+xml"
            capture = Capture(field: field, depth: frames.count, isHTML: field.isHTML || isXHTML, isXHTML: isXHTML)
            buffer.removeAll(keepingCapacity: true)
            singleText = nil
            if case .guid = field { entry?.guidIsPermaLink = attributes["isPermaLink"]?.lowercased() != "false" }
        case .passive, .markup:
            break
        }
        return true
    }

    /// Returns false when parsing should stop (enough entries, or cancelled).
    mutating func endElement(_ elementName: String) -> Bool {
        guard let frame = frames.popLast() else { return true }
        var proceed = true
        switch frame.role {
        case .markup(let wrapper):
            if let capture, capture.isHTML, !wrapper, !Self.voidElements.contains(elementName) {
                spillSingleText()
                buffer += "</"
                buffer += elementName
                buffer += ">"
            }
        case .field(let field):
            finishField(field)
        case .container(let context):
            contexts.removeLast()
            if context == .skip { skipDepth = 0 }
            if context == .entry { proceed = finishEntry() }
        case .passive:
            break
        }
        if frame.pushedBase {
            bases.removeLast()
            resolvedBase = nil
        }
        if frame.pushedNamespaces {
            prefixes = savedPrefixes.removeLast()
            forgetClassifiedNames()
        }
        if frames.isEmpty { rootClosed = true }
        return proceed
    }

    mutating func characters(_ string: String) {
        guard let capture else { return }
        if capture.isXHTML || (capture.isHTML && frames.count > capture.depth) {
            spillSingleText()
            FeedText.appendEscaped(string, to: &buffer)
        } else if buffer.isEmpty && singleText == nil {
            // Most fields arrive in one piece: keep that string as it is, no copy.
            singleText = string
        } else {
            spillSingleText()
            buffer += string
        }
    }

    private mutating func spillSingleText() {
        if let text = singleText {
            buffer += text
            singleText = nil
        }
    }

    /// The captured text, as a string of its own: `buffer` is reused, and a value sharing its storage would
    /// keep the whole grown capacity alive for as long as the entry lives.
    private mutating func takeCapturedText() -> String {
        if let text = singleText {
            singleText = nil
            return text
        }
        let text = buffer.withUTF8 { String(decoding: $0, as: UTF8.self) }
        buffer.removeAll(keepingCapacity: true)
        return text
    }

    var isCapturing: Bool { capture != nil }

    mutating func error(code: Int, line: Int, column: Int) {
        guard !Self.warningCodes.contains(code) else { return }
        let reported = ReportedError(code: code, line: line, column: column)
        if firstError == nil { firstError = reported }
        if code == 89, entityLimitExceeded == nil { entityLimitExceeded = reported }
        if Self.endOfInputCodes.contains(code), endedEarly == nil { endedEarly = reported }
    }

    // MARK: - Roles

    private mutating func startRoot(_ element: FeedElement, name: String) -> Role {
        switch element {
        case .rss:
            format = .rss
            return .container(.rssRoot)
        case .rdfRoot:
            format = .rdf
            return .container(.rdfRoot)
        case .atomFeed:
            format = .atom
            atomDocument = true
            forgetClassifiedNames()
            return .container(.channel)
        default:
            stopReason = .notAFeed(name)
            return .passive
        }
    }

    private mutating func role(of element: FeedElement, attributes: [String: String]) -> Role {
        switch contexts.last {
        case .rssRoot?, .rdfRoot?:
            switch element {
            case .channel: return .container(.channel)
            case .item: return .container(.entry)
            case .image, .textInput: return .container(.skip)
            default: return .passive
            }
        case .channel?:
            switch element {
            case .title, .atomTitle: return .field(.feedTitle)
            case .link: return .field(.feedLink)
            case .atomLink:
                guard let href = attributes["href"] else { return .passive }
                let rel = attributes["rel"]
                if rel == "self", selfLink == nil, let url = FeedText.url(href, base: currentBase),
                    url.scheme == "http" || url.scheme == "https"
                {
                    selfLink = url
                    resolvedBase = nil
                } else if feedLink == nil, Self.isAlternate(rel) {
                    feedLink = FeedText.url(href, base: currentBase)
                    resolvedBase = nil
                }
                return .passive
            case .item, .atomEntry: return .container(.entry)
            case .atomAuthor: return .container(.author)
            case .image, .textInput, .rdfItems, .atomSource: return .container(.skip)
            default: return .passive
            }
        case .entry?:
            return entryRole(of: element, attributes: attributes)
        case .author?:
            switch element {
            case .atomName: return .field(entry == nil ? .feedAuthorName : .authorName)
            case .atomEmail: return .field(.authorEmail)
            default: return .passive
            }
        case .skip?, nil:
            return .passive
        }
    }

    /// Namespace bindings changed: names may mean something else now.
    private mutating func forgetClassifiedNames() {
        classified.removeAll(keepingCapacity: true)
        recentNames.removeAll(keepingCapacity: true)
    }

    private mutating func resolve(_ text: String) -> URL? {
        FeedText.url(text, base: currentBase)
    }

    private mutating func entryRole(of element: FeedElement, attributes: [String: String]) -> Role {
        switch element {
        case .item, .atomEntry:
            // An entry inside an entry: the previous one lost its end tag. Close it, start the next.
            if !finishEntry() { return .passive }
            return .container(.entry)
        case .title, .atomTitle: return .field(.title)
        case .dcTitle: return .field(.dcTitle)
        case .link: return .field(.link)
        case .atomLink:
            if let href = attributes["href"] {
                let rel = attributes["rel"]
                if Self.isAlternate(rel), entry?.link == nil {
                    let url = resolve(href)
                    entry?.link = url
                } else if rel == "enclosure", entry?.enclosure == nil {
                    let url = resolve(href)
                    entry?.enclosure = url
                }
            }
            return .passive
        case .guid: return .field(.guid)
        case .atomID: return .field(.atomID)
        case .description, .atomSummary: return .field(.summary)
        case .dcDescription: return .field(.dcDescription)
        case .contentEncoded, .atomContent: return .field(.content)
        case .author, .dcCreator: return .field(.author)
        case .atomAuthor: return .container(.author)
        case .category, .dcSubject: return .field(.category)
        case .atomCategory:
            if let term = attributes["label"] ?? attributes["term"], !term.isEmpty { entry?.categories.append(term) }
            return .passive
        case .enclosure:
            if entry?.enclosure == nil, let text = attributes["url"] {
                let url = resolve(text)
                entry?.enclosure = url
            }
            return .passive
        case .pubDate, .atomPublished: return .field(.published(rank: 4))
        case .atomIssued, .dctermsIssued: return .field(.published(rank: 3))
        case .dcDate: return .field(.published(rank: 2))
        case .atomCreated, .dctermsCreated: return .field(.published(rank: 1))
        case .atomUpdated: return .field(.updated(rank: 3))
        case .atomModified, .dctermsModified: return .field(.updated(rank: 2))
        case .atomSource, .rssSource: return .container(.skip)
        default: return .passive
        }
    }

    private static func isAlternate(_ rel: String?) -> Bool { rel == nil || rel == "alternate" || rel == "" }

    // MARK: - Values

    private mutating func finishField(_ field: Field) {
        guard let finished = capture else { return }
        capture = nil
        var value = FeedText.trimmed(takeCapturedText())
        if finished.isHTML, bases.contains(where: { !$0.isEmpty }), let base = currentBase {
            value = FeedText.resolvingRelativeURLs(inHTML: value, base: base)
        }
        guard !value.isEmpty else { return }
        switch field {
        case .feedTitle: if feedTitle == nil { feedTitle = value }
        case .feedLink:
            if feedLink == nil {
                feedLink = FeedText.url(value, base: currentBase)
                resolvedBase = nil
            }
        case .feedAuthorName: if feedAuthor == nil, atomDocument { feedAuthor = value }
        case .title: if entry?.title == nil { entry?.title = value }
        case .dcTitle: if entry?.dcTitle == nil { entry?.dcTitle = value }
        case .link:
            if entry?.link == nil {
                let url = resolve(value)
                entry?.link = url
            }
        case .guid: if entry?.guid == nil { entry?.guid = value }
        case .atomID: if entry?.atomID == nil { entry?.atomID = value }
        case .summary: if entry?.summary == nil { entry?.summary = value }
        case .dcDescription: if entry?.dcDescription == nil { entry?.dcDescription = value }
        case .content: if entry?.content == nil { entry?.content = value }
        case .author: if entry?.author == nil { entry?.author = value }
        case .authorName: if entry?.authorName == nil { entry?.authorName = value }
        case .authorEmail: if entry?.authorEmail == nil { entry?.authorEmail = value }
        case .category: entry?.categories.append(value)
        case .published(let rank): entry?.setPublished(value, rank: rank)
        case .updated(let rank): entry?.setUpdated(value, rank: rank)
        }
    }

    private mutating func finishEntry() -> Bool {
        guard let builder = entry else { return true }
        entry = nil
        entryCount += 1
        if let onEntry {
            // Streaming: an Atom feed's author is known by now (it precedes the entries).
            if !onEntry(builder.build(feedAuthor: atomDocument ? feedAuthor : nil)) {
                stopReason = .consumerStopped
                return false
            }
        } else {
            entries.append(builder.build(feedAuthor: nil))
        }
        if entryCount >= maxEntries {
            stopReason = .enoughEntries
            return false
        } else if entryCount % 256 == 0, cancellation?.isCancelled == true {
            stopReason = .cancelled
            return false
        }
        return true
    }

    /// Atom entries without an author inherit the feed's (RFC 4287 §4.2.1).
    mutating func inheritFeedAuthor() {
        guard let feedAuthor else { return }
        for index in entries.indices where entries[index].author == nil { entries[index].author = feedAuthor }
    }

    private mutating func appendStartTag(_ name: String, _ attributes: [String: String]) {
        spillSingleText()
        buffer += "<"
        buffer += name
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) where !key.hasPrefix("xmlns") && key != "xml:base" {
            buffer += " "
            buffer += key
            buffer += "=\""
            FeedText.appendEscaped(value, to: &buffer, quotes: true)
            buffer += "\""
        }
        buffer += ">"
    }

    private static let voidElements: Set<String> = ["br", "img", "hr", "input", "meta", "link", "area", "base",
                                                    "col", "embed", "source", "track", "wbr", "param"]

    /// libxml2 errors that mean the input stopped before the document did.
    private static let endOfInputCodes: Set<Int> = [5, 45, 63]

    /// libxml2 warnings, which are not errors of the document.
    private static let warningCodes: Set<Int> = [27, 93, 97, 98, 99, 100, 102, 106, 107]

    // MARK: - Namespaces

    /// Applies `xmlns` / `xmlns:p` attributes; true when the element declared any (a scope to pop).
    private mutating func declareNamespaces(_ attributes: [String: String]) -> Bool {
        var declared = false
        for (key, value) in attributes where key.hasPrefix("xmlns") {
            let prefix: String
            if key == "xmlns" {
                prefix = ""
            } else if key.utf8.count > 6, key.utf8[key.utf8.index(key.utf8.startIndex, offsetBy: 5)] == UInt8(ascii: ":") {
                prefix = String(key.dropFirst(6))
            } else {
                continue
            }
            if !declared {
                savedPrefixes.append(prefixes)
                declared = true
            }
            prefixes[prefix] = value
        }
        if declared { forgetClassifiedNames() }
        return declared
    }

    private mutating func classify(_ qualifiedName: String) -> FeedElement {
        // A feed repeats a dozen names; comparing short (inline) strings beats hashing them.
        for (name, element) in recentNames where name == qualifiedName { return element }
        let element = classifyUncached(qualifiedName)
        if recentNames.count < 24 { recentNames.append((qualifiedName, element)) }
        return element
    }

    private mutating func classifyUncached(_ qualifiedName: String) -> FeedElement {
        if let known = classified[qualifiedName] { return known }
        let prefix: Substring
        let local: Substring
        if let colon = qualifiedName.firstIndex(of: ":") {
            prefix = qualifiedName[..<colon]
            local = qualifiedName[qualifiedName.index(after: colon)...]
        } else {
            prefix = ""
            local = qualifiedName[...]
        }
        let namespace: FeedElement.Namespace
        if let uri = prefixes[String(prefix)] {
            namespace = FeedElement.Namespace(uri: uri)
        } else {
            namespace = prefix.isEmpty ? .none : FeedElement.Namespace(undeclaredPrefix: prefix)
        }
        let element = FeedElement.classify(namespace: namespace, local: local, atomDocument: atomDocument)
        classified[qualifiedName] = element
        return element
    }
}
