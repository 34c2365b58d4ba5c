import Domain
import Foundation

/// `--format csv`: RFC 4180 (CRLF line ends, fields quoted only when they hold a quote, comma or line
/// break) — a header, then one row per shown item.
///
/// Columns: `source,kind,id,title,subtitle,url,date`, then one per `fields` key (the union over all
/// shown items, sorted). A field key that repeats a fixed column (a record's own `title` field) is
/// headed `fields.<key>`. Absent values are empty cells; numbers print as in JSON; nested arrays and
/// objects as compact JSON. Written here, row by row, straight to the output: CSV.swift's `CSVWriter`, used
/// before, wrote through an in-memory `OutputStream` a field at a time and took 98 s for a million items.
public struct CSVRenderer {
    static let fixedColumns = ["source", "kind", "id", "title", "subtitle", "url", "date"]

    public init() {}
}

extension CSVRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        let rows = report.itemsInOutputOrder(limit: options.limit)
        let fieldKeys = Set(rows.flatMap(\.item.fields.keys)).sorted()
        var line = ""
        Self.appendHeader(fieldKeys: fieldKeys, to: &line)
        output.write(line)
        for row in rows {
            line.removeAll(keepingCapacity: true)
            Self.appendRow(row.item, source: row.source, fieldKeys: fieldKeys, to: &line)
            output.write(line)
        }
    }
}

extension CSVRenderer {
    /// The header: the fixed columns, then `fieldKeys` (sorted), renamed `fields.<key>` where they repeat one.
    static func appendHeader(fieldKeys: [String], to line: inout String) {
        var header = fixedColumns
        var used = Set(header)
        for key in fieldKeys {
            var name = key
            while used.contains(name) { name = "fields." + name }
            used.insert(name)
            header.append(name)
        }
        append(header, to: &line)
    }

    /// An item's row under the header of `fieldKeys`.
    static func appendRow(_ item: Item, source: String, fieldKeys: [String], to line: inout String) {
        append([
            source, item.kind.rawValue, item.id, item.title, item.subtitle ?? "",
            item.url?.absoluteString ?? "", item.date.map(ISO8601.string(from:)) ?? "",
        ] + fieldKeys.map { item.fields[$0]?.displayText ?? "" }, to: &line)
    }

    /// One record and its CRLF: a field is quoted (its quotes doubled) only when it holds a quote, a comma or a
    /// line break (RFC 4180).
    static func append(_ fields: [String], to line: inout String) {
        for (index, field) in fields.enumerated() {
            if index > 0 { line.append(",") }
            if field.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: ",") || $0 == 10 || $0 == 13 }) {
                line.append("\"")
                line.append(field.replacingOccurrences(of: "\"", with: "\"\""))
                line.append("\"")
            } else {
                line.append(field)
            }
        }
        line.append("\r\n")
    }
}
