import Domain

/// Turns a finished run into text on an output stream (stdout in the CLI, a `String` in tests).
///
/// Renderers are stateless values: one instance can render any number of reports from any thread.
public protocol ReportRenderer: Sendable {
    /// Writes `report` to `output`: sources in the report's (manifest) order, each source's items in its
    /// own order, at most `options.limit` of them per source.
    func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream)
}

extension ReportRenderer {
    /// The rendered text as a string, for tests and for callers that post-process it.
    public func string(for report: AggregateReport, options: RenderOptions = RenderOptions()) -> String {
        var text = ""
        render(report, options: options, to: &text)
        return text
    }
}

/// The renderer for each output format: the one place that maps a format to its implementation.
public enum Renderers {
    /// A renderer for `format`.
    public static func renderer(for format: OutputFormat) -> any ReportRenderer {
        switch format {
        case .table: TableRenderer()
        case .json: JSONRenderer()
        case .ndjson: NDJSONRenderer()
        case .csv: CSVRenderer()
        case .markdown: MarkdownRenderer()
        case .atom: AtomRenderer()
        case .rss: RSSRenderer()
        case .jsonfeed: JSONFeedRenderer()
        }
    }
}
