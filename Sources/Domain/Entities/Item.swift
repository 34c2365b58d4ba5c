import Foundation

/// One row of the aggregated result: the source-agnostic shape every entity is presented in.
///
/// The envelope adds the source id; an item only describes itself. `fields` keys are camelCase and
/// stable per `kind` (they are part of the documented output contract).
public struct Item: Sendable, Hashable {
    /// Which entity the item presents; it decides the stable keys of `fields`.
    public var kind: ItemKind
    /// Unique within its source: a provider's natural id (issue number, movie id, guid), never a row index
    /// when the data has a better one.
    public var id: String
    /// One line for people.
    public var title: String
    /// A second line for people, if any.
    public var subtitle: String?
    /// Where the thing lives, for people (a page, not an API endpoint), if it has one.
    public var url: URL?
    /// When it happened (published, updated, observed), if known: what `--since` and date sorts read.
    public var date: Date?
    /// Everything else, under camelCase keys stable per `kind`.
    public var fields: JSONObject

    /// An item; optional parts absent unless given.
    public init(
        kind: ItemKind, id: String, title: String, subtitle: String? = nil, url: URL? = nil,
        date: Date? = nil, fields: JSONObject = [:]
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.url = url
        self.date = date
        self.fields = fields
    }
}

/// What an item is. Closed, so renderers and scripts can rely on it.
public enum ItemKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A ``Record``: a row of a file, a program or a JSON API.
    case record
    /// A ``Weather`` observation.
    case weather
    /// A ``TrackerIssue`` (or pull request).
    case issue
    /// A ``Movie``.
    case movie
    /// A ``FeedEntry`` of a feed or a page.
    case entry
}
