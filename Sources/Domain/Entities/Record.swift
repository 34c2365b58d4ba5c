import Foundation

/// A generic row of data: a line of NDJSON, a CSV row, a JSON array element, a record from an external program.
public struct Record: Sendable, Hashable {
    public var id: String
    public var title: String
    /// A second line for people (an external program's `subtitle`, a Singer record's stream).
    public var subtitle: String?
    public var url: URL?
    public var date: Date?
    /// Every field of the row, including the ones mapped to `title`, `date`, `url` and `id`.
    public var fields: JSONObject

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
    public func toItem() -> Item {
        Item(kind: .record, id: id, title: title, subtitle: subtitle, url: url, date: date, fields: fields)
    }
}
