import Domain

/// `--format ndjson`: one compact item per line (the JSON contract's item shape) and nothing else, so
/// `aggregate --format ndjson | jq` sees only items. Source statuses go to stderr and the exit code.
///
/// `NDJSONStreamWriter` writes the same lines while the run goes on.
public struct NDJSONRenderer {
    public init() {}

    /// Appends one line per item of `source`.
    static func writeLines<C: Collection<Item>>(_ items: C, source: String, to writer: inout JSONWriter) {
        for item in items {
            ReportJSON.writeItem(item, source: source, to: &writer)
            writer.byte(UInt8(ascii: "\n"))
        }
    }
}

extension NDJSONRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        var writer = JSONWriter(capacity: 64 * 1024)
        for (source, item) in report.itemsInOutputOrder(limit: options.limit) {
            ReportJSON.writeItem(item, source: source, to: &writer)
            writer.byte(UInt8(ascii: "\n"))
            if writer.bytes.count >= 64 * 1024 {
                output.write(writer.text)
                writer.removeAll()
            }
        }
        output.write(writer.text)
    }
}
