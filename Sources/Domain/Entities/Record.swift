import Foundation

/// A generic row of data: a line of NDJSON, a CSV row, a JSON array element, a record from an external program.
public struct Record: Sendable, Hashable {
    /// Unique within its source: the row's natural id when it has one.
    public var id: String
    /// One line for people.
    public var title: String
    /// A second line for people (an external program's `subtitle`, a Singer record's stream).
    public var subtitle: String?
    /// Where the thing lives, for people, if it has one.
    public var url: URL?
    /// When it happened, if known: what `--since` and date sorts read.
    public var date: Date?
    /// Every field of the row, including the ones mapped to `title`, `date`, `url` and `id`.
    public var fields: JSONObject

    /// A record; optional parts absent unless given.
    public init(
        id: String, title: String, subtitle: String? = nil, url: URL? = nil, date: Date? = nil,
        fields: JSONObject
    ) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.url = url
        self.date = date
        self.fields = fields
    }
}

extension Record {
    /// The record as a `record` item, every part carried over unchanged.
    public func toItem() -> Item {
        Item(kind: .record, id: id, title: title, subtitle: subtitle, url: url, date: date, fields: fields)
    }
}
