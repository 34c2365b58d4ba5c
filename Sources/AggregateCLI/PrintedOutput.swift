import App
import Domain
import Foundation
import Presentation

/// What `aggregate run` prints, chosen once from its options: where the engine puts the items while the run goes
/// on (`output`), and what is printed once it completed (`print`).
struct PrintedOutput {
    /// Handed to the engine.
    let output: any RunOutput
    /// After the run, interrupted or not: what was streamed goes out.
    var flush: () -> Void = {}
    /// After a completed run: the rest of stdout (a spool that was lost is said on stderr).
    let print: (AggregateReport) -> Void
}

extension RunCommand {
    /// The output for `format` and the options: NDJSON and the JSON document stream; CSV, the table, Markdown and
    /// a date order wait in a temporary file (`SpooledReport`); a template, `--jq` over the report, feeds and
    /// `--dedupe` of the spooled formats collect the report first.
    func printedOutput(
        format: OutputFormat, jq: JQFilter?, template: ReportTemplate?, options: RenderOptions, sources: Int, now: Date,
        to stdout: StandardOutput, failures: JQFailures
    ) -> PrintedOutput {
        let itemShaping = ItemShaping(since: shaping.sinceDate(now: now), order: sort, dedupe: shaping.dedupe)
        if let template {
            return PrintedOutput(output: CollectedOutput(itemShaping)) { report in
                stdout.write(template.render(report, options: options, now: now))
            }
        }
        let ndjson = format == .ndjson
            ? ndjsonWriter(to: stdout, limit: sort == .source ? limit : nil, jq: jq, failures: failures) : nil
        // Not with --dedupe: these formats keep the fuller copy with its alsoIn (docs/OUTPUT.md), which a stream cannot.
        if jq == nil || ndjson != nil, shaping.dedupe == nil,
           SpooledReport.handles(format, order: sort, sources: sources) {
            let spooled = SpooledReport(format: format, order: sort, options: options)
            let output = StreamedOutput(itemShaping) { source, items, _ in spooled.write(items, source: source.id) }
            return PrintedOutput(output: output) { report in
                let failure = if let ndjson {
                    spooled.finish(to: ndjson)
                } else {
                    spooled.finish(report) { stdout.write(bytes: $0) }
                }
                ndjson?.flush()
                if let failure { Terminal.writeError("aggregate: error: items were lost: \(failure)\n") }
            }
        }
        if let ndjson, sort == .source {
            let output = StreamedOutput(itemShaping) { source, items, more in
                ndjson.write(items, source: source.id, more: more)
            }
            return PrintedOutput(output: output, flush: ndjson.flush) { _ in ndjson.flush() }
        }
        if let ndjson {
            return PrintedOutput(output: CollectedOutput(itemShaping)) { report in
                ndjson.write(report.itemsInOutputOrder(limit: limit))
                ndjson.flush()
            }
        }
        if format == .json, jq == nil, sort == .source {
            // The items wait in a temporary file, not in memory (the sources' summaries go first).
            let spool = SpooledJSONDocument(limit: limit)
            let output = StreamedOutput(itemShaping) { source, items, _ in spool.write(items, source: source.id) }
            return PrintedOutput(output: output) { report in
                if let failure = spool.finish(report, to: stdout) {
                    Terminal.writeError("aggregate: error: the JSON items were lost: \(failure)\n")
                }
            }
        }
        if let jq {
            return PrintedOutput(output: CollectedOutput(itemShaping)) { report in
                let result = jq.run(report, options: options)
                stdout.write(bytes: result.text)
                if let failure = result.failure { failures.report(failure, at: "the report") }
            }
        }
        return PrintedOutput(output: CollectedOutput(itemShaping)) { report in
            var stream = stdout
            Renderers.renderer(for: format).render(report, options: options, to: &stream)
        }
    }

    /// NDJSON's writer (through `--jq` when given). In the sources' own order it writes while the run goes on
    /// and the final report keeps only counts; a date sort hands it the merged items at the end (`limit` nil:
    /// they come limited).
    private func ndjsonWriter(
        to output: StandardOutput, limit: Int?, jq: JQFilter?, failures: JQFailures
    ) -> NDJSONStreamWriter {
        NDJSONStreamWriter(
            limit: limit, jq: jq, onFailure: { failure, item in failures.report(failure, at: "item \(item)") }
        ) { chunk in
            output.write(bytes: chunk)
            output.flush()  // the writer chose when: a full chunk, or a source's lines as they come
        }
    }
}
