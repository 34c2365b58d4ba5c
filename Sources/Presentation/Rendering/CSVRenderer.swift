import Domain
import Foundation

/// `--format csv`: RFC 4180 (CRLF line ends, fields quoted only when they hold a quote, comma or line
/// break) — a header, then one row per shown item.
///
/// Columns: `source,kind,id,title,subtitle,url,date`, then one per `fields` key (the union over all
/// shown items, sorted). A field key that repeats a fixed column (a record's own `title` field) is
/// headed `fields.<key>`. Absent values are empty cells; numbers print as in JSON; nested arrays and
/// objects as compact JSON. Written here, row by row, as UTF-8 bytes, not through a CSV library or `String`
/// rows (what those cost: BENCHMARKS.md, round ten).
public struct CSVRenderer {
    static let fixedColumns = ["source", "kind", "id", "title", "subtitle", "url", "date"]

    public init() {}
}

extension CSVRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        let rows = report.itemsInOutputOrder(limit: options.limit)
        let fieldKeys = Set(rows.flatMap(\.item.fields.keys)).sorted()
        var text: [UInt8] = []
        Self.appendHeader(fieldKeys: fieldKeys, to: &text)
        for row in rows {
            Self.appendRow(row.item, source: row.source, fieldKeys: fieldKeys, to: &text)
            if text.count >= 1 << 16 {
                output.write(String(decoding: text, as: UTF8.self))
                text.removeAll(keepingCapacity: true)
            }
        }
        output.write(String(decoding: text, as: UTF8.self))
    }
}

extension CSVRenderer {
    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let lineEnd: [UInt8] = [13, 10]

    /// The header: the fixed columns, then `fieldKeys` (sorted), renamed `fields.<key>` where they repeat one.
    static func appendHeader(fieldKeys: [String], to text: inout [UInt8]) {
        var used = Set(fixedColumns)
        for (index, column) in fixedColumns.enumerated() {
            if index > 0 { text.append(comma) }
            appendField(column, to: &text)
        }
        for key in fieldKeys {
            var name = key
            while used.contains(name) { name = "fields." + name }
            used.insert(name)
            text.append(comma)
            appendField(name, to: &text)
        }
        text.append(contentsOf: lineEnd)
    }

    /// An item's row under the header of `fieldKeys`, with its CRLF.
    static func appendRow(_ item: Item, source: String, fieldKeys: [String], to text: inout [UInt8]) {
        func next(_ cell: String?) {
            text.append(comma)
            if let cell { appendField(cell, to: &text) }
        }
        appendField(source, to: &text)
        next(item.kind.rawValue)
        next(item.id)
        next(item.title)
        next(item.subtitle)
        next(item.url?.absoluteString)
        next(item.date.map(ISO8601.string(from:)))
        for key in fieldKeys {
            text.append(comma)
            if let value = item.fields[key] { appendField(value.displayText, to: &text) }
        }
        text.append(contentsOf: lineEnd)
    }

    /// One cell: quoted, its quotes doubled, only when it holds a quote, a comma or a line break (RFC 4180).
    static func appendField(_ field: String, to text: inout [UInt8]) {
        var field = field
        field.withUTF8 { bytes in
            guard bytes.contains(where: { $0 == quote || $0 == comma || $0 == 10 || $0 == 13 }) else {
                text.append(contentsOf: bytes)
                return
            }
            text.append(quote)
            // Each run ends with a quote and the next one starts with it again: every quote is written twice.
            var start = 0
            for index in bytes.indices where bytes[index] == quote {
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...index]))
                start = index
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            text.append(quote)
        }
    }
}
