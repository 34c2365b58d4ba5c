import Domain

/// `--format ndjson`: one compact item per line (the JSON contract's item shape) and nothing else, so
/// `aggregate --format ndjson | jq` sees only items. Source statuses go to stderr and the exit code.
public struct NDJSONRenderer {
    public init() {}
}

extension NDJSONRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        for item in ReportJSON.items(report, options: options) {
            output.write(item.compact)
            output.write("\n")
        }
    }
}
