import Foundation

/// One row of the aggregated result: the source-agnostic shape every entity is presented in.
///
/// The envelope adds the source id; an item only describes itself. `fields` keys are camelCase and
/// stable per `kind` (they are part of the documented output contract).
public struct Item: Sendable, Hashable {
    public var kind: ItemKind
    /// Unique within its source: a provider's natural id (issue number, movie id, guid), never a row index
    /// when the data has a better one.
    public var id: String
    public var title: String
    public var subtitle: String?
    public var url: URL?
    public var date: Date?
    public var fields: JSONObject

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
    case record
    case weather
    case issue
    case movie
    case entry
}
