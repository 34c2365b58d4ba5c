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

    enum Context { case rssRoot, rdfRoot, channel, entry, author, skip }

    enum Field {
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

    enum Role { case passive, container(Context), field(Field), markup(wrapper: Bool) }

    struct Frame {
        var role: Role
        var pushedBase = false
        var pushedNamespaces = false
    }

    // MARK: - Results

    var format: FeedFormat?
    var rootClosed = false
    var firstError: ReportedError?
    var entityLimitExceeded: ReportedError?
    /// The input ended inside an element, a CDATA section or a comment: a truncated document.
    var endedEarly: ReportedError?
    var stopReason: StopReason?
    var feedTitle: String?
    var feedLink: URL?
    /// The site link, or else the feed's own URL.
    var siteLink: URL? { feedLink ?? selfLink }
    var entries: [FeedEntry] = []

    // MARK: - State

    let maxEntries: Int
    /// When set, entries go here as they close (false stops the parse) instead of into `entries`.
    var onEntry: ((FeedEntry) -> Bool)?
    var entryCount = 0
    /// Elements that looked like entries but were none (nothing in them): left out.
    var droppedEntries = 0
    /// The entry an entry began inside of, until the inner one ends (`finishEntry`).
    var suspendedEntry: EntryBuilder?
    let cancellation: CancellationToken?
    let documentURL: URL?
    var frames: [Frame] = []
    var contexts: [Context] = []
    var skipDepth = 0
    /// `xml:base` values in scope, innermost last, as written (resolved on demand: most feeds have none).
    var bases: [String] = []
    var resolvedBase: URL??
    /// The feed's own URL as it states it (`atom:link rel="self"`).
    var selfLink: URL?
    var atomDocument = false
    var names = ElementNames()
    var text = TextCapture()
    var entry: EntryBuilder?
    var feedAuthor: String?

    init(maxEntries: Int, cancellation: CancellationToken?, documentURL: URL?) {
        self.maxEntries = maxEntries
        self.cancellation = cancellation
        self.documentURL = documentURL
    }

    /// What relative references resolve against: the `xml:base` chain over the document's URL. A local
    /// file's own path makes a poor base for a feed's links, so there the feed's stated URL (`rel="self"`)
    /// or its site link comes first.
    var currentBase: URL? {
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
    mutating func startElement(_ elementName: String, attributes: XMLAttributes) -> Bool {
        var frame = Frame(role: .passive)
        if !attributes.isEmpty {
            frame.pushedNamespaces = names.declareNamespaces(attributes)
            if let base = attributes["xml:base"] {
                bases.append(base)
                resolvedBase = nil
                frame.pushedBase = true
            }
        }
        if text.isActive {
            let wrapper = text.isXHTMLWrapper(atDepth: frames.count)
            frame.role = .markup(wrapper: wrapper)
            if !wrapper { text.startTag(elementName, attributes) }
            frames.append(frame)
            return true
        }
        if skipDepth > 0 {
            frames.append(frame)
            return true
        }
        let element = names.classify(elementName, atomDocument: atomDocument)
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
            text.begin(depth: frames.count, isHTML: field.isHTML || isXHTML, isXHTML: isXHTML)
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
            if !wrapper { text.endTag(elementName) }
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
        if frame.pushedNamespaces { names.endScope() }
        if frames.isEmpty { rootClosed = true }
        return proceed
    }

    mutating func characters(_ string: String) {
        text.append(string, depth: frames.count)
    }

    var isCapturing: Bool { text.isActive }

    /// Whether text arriving now is written back escaped into the captured markup (`charactersInMarkup`).
    var escapesText: Bool { text.escapesText(depth: frames.count) }

    /// Text inside captured markup, as valid UTF-8 bytes (`escapesText` is true).
    mutating func charactersInMarkup(_ bytes: UnsafeBufferPointer<UInt8>) {
        text.appendEscaped(bytes)
    }

    mutating func error(code: Int, line: Int, column: Int) {
        guard !Self.warningCodes.contains(code) else { return }
        let reported = ReportedError(code: code, line: line, column: column)
        if firstError == nil { firstError = reported }
        if code == 89, entityLimitExceeded == nil { entityLimitExceeded = reported }
        if Self.endOfInputCodes.contains(code), endedEarly == nil { endedEarly = reported }
    }

    // MARK: - Values

    mutating func finishField(_ field: Field) {
        guard text.isActive else { return }
        let (captured, isHTML) = text.finish()
        var value = FeedText.trimmed(captured)
        if isHTML, bases.contains(where: { !$0.isEmpty }), let base = currentBase {
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

    /// An entry ends: emitted, or left out when it has nothing (`EntryBuilder.isEmpty`). One that began inside
    /// another (`suspendedEntry`) decides what the outer one was: an empty one (`<item/>` nested in an item, as
    /// a real feed has it) is dropped and the outer entry goes on, whole; one with content means the outer lost
    /// its end tag, so the outer is emitted first and this one after it.
    mutating func finishEntry() -> Bool {
        guard let builder = entry.take() else { return true }  // moved out, not copied
        guard !builder.isEmpty else {
            droppedEntries += 1  // no title, link, id, summary, content or date: nothing to show
            entry = suspendedEntry.take()
            return true
        }
        if let outer = suspendedEntry.take(), !outer.isEmpty, !emit(outer) { return false }
        return emit(builder)
    }

    /// Hands an entry on (or keeps it); false when parsing should stop.
    private mutating func emit(_ builder: EntryBuilder) -> Bool {
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

    /// libxml2 errors that mean the input stopped before the document did.
    static let endOfInputCodes: Set<Int> = [5, 45, 63]

    /// libxml2 warnings, which are not errors of the document.
    static let warningCodes: Set<Int> = [27, 93, 97, 98, 99, 100, 102, 106, 107]
}
