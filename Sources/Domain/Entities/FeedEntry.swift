import Foundation

/// Where a feed is read from.
public enum FeedLocation: Sendable, Hashable, CustomStringConvertible {
    /// A feed fetched over HTTP.
    case url(URL)
    /// A feed read from a file on this machine.
    case file(URL)

    /// How the feed is named in messages. A URL's query is left out (`…?…`): private feeds carry their
    /// credential there, and the host and path identify the feed well enough.
    public var description: String {
        switch self {
        case .url(let url):
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.query != nil else {
                return url.absoluteString
            }
            components.query = nil
            components.fragment = nil
            components.user = nil
            components.password = nil
            return (components.string ?? url.host ?? "feed") + "?…"
        case .file(let url):
            return url.path
        }
    }
}

/// A syndication feed (RSS, Atom, RDF) and its entries, in document order.
public struct Feed: Sendable, Hashable {
    /// The feed's title, if it has one.
    public var title: String?
    /// The feed's own page, if it names one.
    public var link: URL?
    /// The entries, in document order.
    public var entries: [FeedEntry]
    /// Elements that looked like entries but were none (empty, or nested inside another entry), left out.
    public var droppedEntries: Int
    /// What the parser recovered from or skipped, for the source's warnings (the entries stand).
    public var warnings: [String]

    /// A feed; nothing dropped and no warning unless said.
    public init(
        title: String? = nil, link: URL? = nil, entries: [FeedEntry], droppedEntries: Int = 0, warnings: [String] = []
    ) {
        self.title = title
        self.link = link
        self.entries = entries
        self.droppedEntries = droppedEntries
        self.warnings = warnings
    }
}

/// One entry of a feed.
public struct FeedEntry: Sendable, Hashable {
    /// The entry's id: unique within its feed.
    public var id: String
    /// The entry's title, as text.
    public var title: String?
    /// The entry's link, if it has one.
    public var link: URL?
    /// As published (may contain HTML).
    public var summary: String?
    /// The full content, as published (may contain HTML).
    public var content: String?
    /// The author's name, if given.
    public var author: String?
    /// Categories or tags, in document order.
    public var categories: [String]
    /// When it was published, if the date could be read.
    public var published: Date?
    /// When it was last updated, if the date could be read.
    public var updated: Date?
    /// The first enclosure's URL (a podcast's audio), if any.
    public var enclosureURL: URL?
    /// A picture of the entry (an HTML page's item image; feeds leave it nil).
    public var image: URL?
    /// The published and updated dates as written, when they could not be read (`published`/`updated` is
    /// then nil): an unknown format or language loses no information.
    public var publishedRaw: String?
    /// The updated date as written, when it could not be read (see `publishedRaw`).
    public var updatedRaw: String?

    /// An entry; optional parts absent unless given.
    public init(
        id: String, title: String? = nil, link: URL? = nil, summary: String? = nil, content: String? = nil,
        author: String? = nil, categories: [String] = [], published: Date? = nil, updated: Date? = nil,
        enclosureURL: URL? = nil, image: URL? = nil, publishedRaw: String? = nil, updatedRaw: String? = nil
    ) {
        self.id = id
        self.title = title
        self.link = link
        self.summary = summary
        self.content = content
        self.author = author
        self.categories = categories
        self.published = published
        self.updated = updated
        self.enclosureURL = enclosureURL
        self.image = image
        self.publishedRaw = publishedRaw
        self.updatedRaw = updatedRaw
    }

    /// What an entry without a title is called, by every provider that shows entries (`feed`, `files`).
    public static let untitledTitle = "(untitled)"
}
