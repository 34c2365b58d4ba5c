import App
import ArgumentParser
import Domain
import Foundation
import Logging
import Presentation
import ProviderKit

/// The default command: load the selected sources concurrently and print one result.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Load the selected sources concurrently and print one result (the default command).",
        discussion: """
            Data goes to stdout; progress, warnings and --verbose logs go to stderr. Live progress is shown \
            only when stderr is a terminal and --quiet is not given.

            SHAPING THE OUTPUT
              --since 2h                  only items dated in the last two hours
              --sort date                 newest first across every source (one merge)
              --dedupe url                one copy of a story several feeds carry
              --jq '.items[].title'       jq over the report (-f json, the default with --jq)
              -f ndjson --jq 'select(.date > "2026-11-20") | .url'
                                          jq over each item; strings print raw (jq -r)
              --template '{{#items}}{{pad8(relative(date))}} {{{title}}}{{/items}}'
                                          a Mustache template over the report
              --template @digest.mustache a template from a file

            A jq syntax error exits 64 with jq's message; an error while jq runs prints jq's message, \
            goes on with the next item (ndjson) and exits 5.

            FEEDS
              -f atom --sort date > feed.xml       an Atom 1.0 feed of the items (also rss, jsonfeed)
              -f rss --feed-title 'Team news' --feed-link https://example.com/news

            Entry ids are stable (urn:aggregate:<source>:<item id>), so a feed reader polling a file that cron \
            rewrites sees each item once.
            """
    )

    @OptionGroup var manifestOptions: ManifestOptions

    @OptionGroup var selection: SourceSelection

    @Option(name: [.customShort("f"), .long], help: "Output format (default: table; json with --jq).")
    var format: OutputFormat?

    @Option(name: .long, help: ArgumentHelp("At most N items per source in the output; the rest are counted on stderr (the table says \"… N more\") and still reach the history and the sinks.", valueName: "n"))
    var limit: Int?

    @Option(
        name: .long,
        help: "Item order: each source's own (feed, page, file order), or newest first across every source.")
    var sort: ItemOrder = .source

    @OptionGroup var shaping: ShapingOptions

    @OptionGroup var feedOptions: FeedOptions

    @OptionGroup var templateOption: TemplateOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Give the whole run at most this many seconds; sources still loading are reported as timed out.",
            valueName: "seconds"))
    var deadline: Double?

    @Option(
        name: .long,
        help: ArgumentHelp("A search query for the selected sources whose provider accepts one.", valueName: "text"))
    var query: String?

    @Flag(name: .long, help: "Print only items this source has not delivered before (new since the last run).")
    var new = false

    @Flag(name: .customLong("store-optional"),
          help: "When the shared store (AGGREGATE_STORE, the manifest's store.url) cannot be reached, warn and run without it.")
    var storeOptional = false

    @Flag(name: .long, help: "No network at all: HTTP sources are served from the cache, whatever its age.")
    var offline = false

    @Flag(name: .customLong("no-cache"), help: "Do not read the response cache (responses are still stored).")
    var noCache = false

    @Flag(name: .customLong("allow-stale"),
          help: "Exit 0 when a failed source was served from its last good copy (status stale).")
    var allowStale = false

    @Flag(name: .customLong("allow-sink-failures"),
          help: "Exit 0 when a sink could not deliver (its items stay queued for the next run).")
    var allowSinkFailures = false

    @Flag(name: .shortAndLong, help: "No progress or warnings on stderr.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Per-source timings and one log line per request on stderr.")
    var verbose = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        if let deadline, !(deadline > 0) { throw ValidationError("--deadline must be a number of seconds above 0.") }
        if quiet, verbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
        if offline, noCache { throw ValidationError("--offline and --no-cache cannot be used together.") }
        if let query, query.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--query needs some text.")
        }
        if shaping.jq != nil, templateOption.template != nil {
            throw ValidationError("--jq and --template cannot be used together.")
        }
        if shaping.jq != nil, let format, format != .json, format != .ndjson {
            throw ValidationError("--jq applies to JSON: use it with -f json (the report) or -f ndjson (each item).")
        }
        try feedOptions.validate(for: format)
        if templateOption.template != nil, format != nil {
            throw ValidationError("--template prints the template instead of a format; leave out -f.")
        }
    }

    /// The format printed: the one asked for, JSON for --jq, else the table.
    private var outputFormat: OutputFormat { format ?? (shaping.jq != nil ? .json : .table) }

    func run() throws {
        Terminal.ignoreBrokenPipes()
        let interruption = Interruption()
        let logger = Logger(label: "aggregate") { label in
            StandardErrorLogHandler(label: label, level: verbose ? .info : .warning)
        }
        let format = outputFormat
        let jq = try shaping.compiledJQ(compact: format == .ndjson)
        let template = try templateOption.load()
        let jqFailures = JQFailures()
        let container = try manifestOptions.loadContainer(logger: logger, selection: selection.ids)
        let now = Date()
        let request = RunRequest(
            selection: selection.ids, query: query, deadlineSeconds: deadline,
            cacheMode: offline ? .offline : noCache ? .refresh : .normal, newOnly: new, storeOptional: storeOptional)
        // Live progress, when a person watches stderr: the view model follows the run, the renderer draws it.
        let progress = Terminal.stderrIsTTY && !quiet
            ? ProgressRenderer(output: Terminal.writeError, width: Terminal.stderrWidth, color: Terminal.stderrWantsColor)
            : nil
        let viewModel = progress.map { progress in
            let viewModel = AggregateViewModel()
            progress.attach(to: viewModel)
            return viewModel
        }
        let stdout = StandardOutput()
        let options = RenderOptions(
            limit: limit, verbose: verbose, color: format == .table && Terminal.stdoutWantsColor,
            width: Terminal.stdoutWidth, feed: feedOptions.metadata,
            rowCap: format == .table ? RenderOptions.rowCap(stdoutIsTerminal: Terminal.stdoutIsTTY) : nil)
        let printed = printedOutput(
            format: format, jq: jq, template: template, options: options, sources: container.manifest.sources.count,
            now: now, to: stdout, failures: jqFailures)
        let outcome: RunOutcome
        do throws(SelectionError) {
            outcome = try container.engine.runAndWait(
                request, cancellation: interruption.cancellation, observer: viewModel, output: printed.output)
        } catch {
            if case .storeUnavailable = error {
                Terminal.writeError("aggregate: error: \(error.description)\n")
                throw ExitCode(1)
            }
            throw ValidationError(error.description)
        }
        progress?.finish()  // before stdout: both usually share one terminal
        printed.flush()
        try exitIfInterrupted(interruption, output: stdout)
        let report = outcome.report
        if !quiet {
            for warning in outcome.warnings { Terminal.writeError("aggregate: warning: \(warning)\n") }
            for note in outcome.notes { Terminal.writeError("aggregate: \(note)\n") }
        }
        printed.print(report)
        stdout.flush()

        reportOnStandardError(report, tableShowsProblems: format == .table && template == nil)
        let sinks = SinkStatusLines(verbose: verbose, quiet: quiet)
        sinks.report(outcome.sinks)
        let status = jqFailures.exitStatus
            ?? (report.hasFailures(allowingStale: allowStale) || (sinks.hasFailures && !allowSinkFailures)
                ? ExitStatus.sourcesFailed : 0)
        // Everything the run printed and stored is out: stdout flushed, the history and the sinks' queue
        // committed. The process ends here with the run's objects alive: taking them apart one by one (the store's
        // connections, the sources, the report) would show nothing to anyone; the kernel frees it all at once.
        // (What the teardown cost: BENCHMARKS.md, "A short run's teardown".)
        withExtendedLifetime((container, outcome)) { Foundation.exit(status) }
    }

    /// An interrupted run prints no report (what was streamed stays printed) and exits 128 + the signal; the run
    /// has already waited for what its sources started to be gone.
    private func exitIfInterrupted(_ interruption: Interruption, output: StandardOutput) throws {
        guard let status = interruption.exitStatus else { return }
        output.flush()
        if !quiet { Terminal.writeError("aggregate: interrupted; every program it started has been stopped\n") }
        throw ExitCode(status)
    }

    /// Machine formats keep stdout clean, so failures and warnings are also told to the person on stderr.
    /// The table shows them itself.
    private func reportOnStandardError(_ report: AggregateReport, tableShowsProblems: Bool) {
        var capped: [SourceReport] = []
        for source in report.sources {
            if verbose {
                let milliseconds = Int((source.duration * 1000).rounded())
                let filtered = source.filteredItemCount.map { ", \($0) filtered out" } ?? ""
                Terminal.writeError(
                    "aggregate: \(source.id): \(source.status.rawValue), \(HumanFormat.count(source.itemCount, "item"))\(filtered), \(milliseconds) ms\n")
            }
            guard !quiet, !tableShowsProblems else { continue }
            if let error = source.error {
                Terminal.writeError("aggregate: \(source.id): \(source.status.rawValue) (\(error.kind.rawValue)): \(error.message)\n")
            }
            if source.status == .stale || source.cache == .stale, let message = source.message {
                Terminal.writeError("aggregate: \(source.id): \(message)\n")
            }
            for warning in source.warnings {
                Terminal.writeError("aggregate: \(source.id): warning: \(warning)\n")
            }
            // The table says "… N more" itself; every other format says it here, so --limit drops nothing silently.
            if let limit, source.itemCount > limit { capped.append(source) }
        }
        if let limit { Self.reportLimit(limit, capped: capped, verbose: verbose) }
    }

    /// A line per source that --limit cut, or beyond a few (a manifest of thousands) the first ones and a count.
    private static func reportLimit(_ limit: Int, capped: [SourceReport], verbose: Bool) {
        let named = verbose || capped.count <= 5 ? capped[...] : capped.prefix(3)
        for source in named {
            Terminal.writeError("aggregate: \(source.id): \(limit) of \(source.itemCount) items printed (--limit)\n")
        }
        let rest = capped.dropFirst(named.count)
        guard !rest.isEmpty else { return }
        let total = rest.reduce(0) { $0 + $1.itemCount }
        Terminal.writeError(
            "aggregate: and \(rest.count) more sources: \(rest.count * limit) of \(total) items printed (--limit; --verbose names each)\n")
    }
}

extension OutputFormat: EnumArgument {}
extension ItemOrder: EnumArgument {}
