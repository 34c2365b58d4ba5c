import Domain

/// `--format json`: the whole run as one pretty-printed document (2-space indent, stable key order,
/// ISO 8601 UTC dates), followed by a newline; or, not pretty, as one line (`watch -f json`: a report per
/// line). See `ReportJSON` for the shapes.
public struct JSONRenderer {
    public var pretty: Bool

    public init(pretty: Bool = true) {
        self.pretty = pretty
    }
}

extension JSONRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        var writer = JSONWriter(capacity: 64 * 1024, pretty: pretty)
        ReportJSON.writeDocument(report, options: options, to: &writer)
        writer.byte(UInt8(ascii: "\n"))
        output.write(writer.text)
    }
}
