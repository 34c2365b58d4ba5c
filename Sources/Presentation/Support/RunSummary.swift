import Domain

/// The top of a report: how many sources ended how, and which ones have a problem (error, timeout, stale, or
/// skipped because of one). With a thousand sources, the few that failed would otherwise be lost among the
/// rest: the JSON contract's `summary` and the table's first lines (`TableRenderer`) show them first.
struct RunSummary {
    /// Sources per status, in `SourceStatus.allCases` order; statuses no source has are left out.
    var counts: [(status: SourceStatus, count: Int)]
    /// The sources with a problem, in report order.
    var problems: [SourceReport]
    var total: Int

    /// The table shows the summary from this many sources on: below it, every source's line is in sight anyway.
    static let tableThreshold = 10
    /// Problem sources the table lists by name before "… N more".
    static let tableListed = 20

    init(_ report: AggregateReport) {
        total = report.sources.count
        var byStatus: [SourceStatus: Int] = [:]
        for source in report.sources { byStatus[source.status, default: 0] += 1 }
        counts = SourceStatus.allCases.compactMap { status in byStatus[status].map { (status, $0) } }
        problems = report.sources.filter(Self.hasProblem)
    }

    static func hasProblem(_ source: SourceReport) -> Bool {
        switch source.status {
        case .error, .timeout, .stale: true
        case .skipped: source.error != nil
        case .ok: false
        }
    }
}

extension ReportJSON {
    /// `"summary": {"total": 1000, "ok": 990, "error": 6, "timeout": 4, "problems": ["feed0042", …]}`: every status
    /// key is present (0 when none), `problems` lists the ids of the sources with a problem in report order.
    static func writeSummary(_ report: AggregateReport, to writer: inout JSONWriter) {
        let summary = RunSummary(report)
        writer.beginObject()
        writer.key("total")
        writer.int(summary.total)
        for status in SourceStatus.allCases {
            writer.key(status.rawValue)
            writer.int(summary.counts.first { $0.status == status }?.count ?? 0)
        }
        writer.key("problems")
        writer.value(.array(summary.problems.map { .string($0.id) }))
        writer.endObject()
    }
}

extension TableRenderer {
    /// `1000 sources: 990 ok · 6 error · 4 timeout`, then one line per problem source (at most
    /// `RunSummary.tableListed`), then a blank line; nothing below `RunSummary.tableThreshold` sources.
    func writeSummary(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        guard report.sources.count >= RunSummary.tableThreshold else { return }
        let summary = RunSummary(report)
        let counts = summary.counts.map { "\($0.count) \($0.status.rawValue)" }.joined(separator: " · ")
        output.write(ANSIStyle.bold.apply("\(summary.total) sources:", enabled: options.color) + " \(counts)\n")
        for source in summary.problems.prefix(RunSummary.tableListed) {
            let style = Self.style(for: source.status)
            let problem = SourceSummary.problems(of: source).first.map { " · " + TerminalText.sanitized($0) } ?? ""
            output.write("  " + style.apply(Self.symbol(for: source.status), enabled: options.color) + " "
                + TerminalText.sanitized(source.id) + " " + style.apply(source.status.rawValue, enabled: options.color)
                + problem + "\n")
        }
        let unlisted = summary.problems.count - RunSummary.tableListed
        if unlisted > 0 {
            output.write("  " + ANSIStyle.dim.apply("… \(unlisted) more with a problem, below", enabled: options.color) + "\n")
        }
        output.write("\n")
    }
}
