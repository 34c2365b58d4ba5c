import CSV
import Domain
import Foundation

/// `--format csv`: RFC 4180 (CRLF line ends, fields quoted only when they hold a quote, comma or line
/// break) — a header, then one row per shown item.
///
/// Columns: `source,kind,id,title,subtitle,url,date`, then one per `fields` key (the union over all
/// shown items, sorted). A field key that repeats a fixed column (a record's own `title` field) is
/// headed `fields.<key>`. Absent values are empty cells; numbers print as in JSON; nested arrays and
/// objects as compact JSON. Quoting is CSV.swift's `CSVWriter`, the library the files provider reads with.
public struct CSVRenderer {
    static let fixedColumns = ["source", "kind", "id", "title", "subtitle", "url", "date"]

    public init() {}
}

extension CSVRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        let rows = report.itemsInOutputOrder(limit: options.limit)
        let fieldKeys = Set(rows.flatMap(\.item.fields.keys)).sorted()
        var header = Self.fixedColumns
        var used = Set(header)
        for key in fieldKeys {
            var name = key
            while used.contains(name) { name = "fields." + name }
            used.insert(name)
            header.append(name)
        }

        let stream = OutputStream(toMemory: ())
        do {
            let writer = try CSVWriter(stream: stream, newline: .crlf)
            try writer.write(row: header)
            for row in rows {
                let item = row.item
                let fixed = [
                    row.source, item.kind.rawValue, item.id, item.title, item.subtitle ?? "",
                    item.url?.absoluteString ?? "", item.date.map(ISO8601.string(from:)) ?? "",
                ]
                try writer.write(row: fixed + fieldKeys.map { item.fields[$0]?.displayText ?? "" })
            }
            stream.close()
        } catch {
            // A memory stream only fails when memory does, and then nothing else would work either.
            preconditionFailure("writing CSV to memory failed: \(error)")
        }
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        output.write(String(decoding: data, as: UTF8.self))
        output.write("\r\n")  // CSVWriter breaks lines before a row, so the last one is ended here.
    }
}
