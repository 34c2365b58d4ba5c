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
}
