/// The output formats `aggregate` can print on stdout.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// Grouped by source with a status line each, aligned columns: for people.
    case table
    /// One pretty-printed document (the documented JSON output contract).
    case json
    /// One item per line, same item shape as `json`, nothing else.
    case ndjson
    /// RFC 4180: a header plus one row per item, `fields` flattened into columns.
    case csv
    /// A `##` section per source with a GitHub table of its items.
    case markdown
    /// An Atom 1.0 feed of the items, stable entry ids (source id + item id).
    case atom
    /// An RSS 2.0 channel of the items, the same ids as `guid`.
    case rss
    /// A JSON Feed 1.1 of the items, the same ids.
    case jsonfeed

    /// Atom, RSS and JSON Feed: formats of the items alone, for feed readers.
    public var isFeed: Bool { self == .atom || self == .rss || self == .jsonfeed }
}
