/// How entries are read from an HTML page: one XPath 1.0 expression selects a node per entry, and one per field
/// is evaluated with that node as the context node.
public struct HTMLExtraction: Sendable, Hashable {
    /// What an entry can be given from its node.
    public enum Field: String, Sendable, Hashable, CaseIterable, Comparable {
        case title, link, date, summary, image, id

        public static func < (lhs: Field, rhs: Field) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// What a field not named is read from: the first heading or link inside the item for the title, the item's
    /// own `href` or its first link's for the link. The other fields are absent unless named.
    public static let defaultFields: [Field: String] = [
        .title: "(.//h1 | .//h2 | .//h3 | .//h4 | .//a)[1]",
        .link: "(self::*/@href | .//a/@href)[1]",
    ]

    public var items: String
    /// Named fields; `defaultFields` fill in title and link when absent.
    public var fields: [Field: String]
    /// A date pattern (Unicode TR35, `dd.MM.yyyy HH:mm`) for `date`; nil: read as feed dates are (RFC 822,
    /// ISO 8601 and the common variants).
    public var dateFormat: String?

    public init(items: String, fields: [Field: String] = [:], dateFormat: String? = nil) {
        self.items = items
        self.fields = Self.defaultFields.merging(fields) { _, named in named }
        self.dateFormat = dateFormat
    }
}
