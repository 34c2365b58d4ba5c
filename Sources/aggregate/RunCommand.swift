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
            """
    )

    @OptionGroup var manifestOptions: ManifestOptions

    @OptionGroup var selection: SourceSelection

    @Option(name: [.customShort("f"), .long], help: "Output format.")
    var format: OutputFormat = .table

    @Option(name: .long, help: ArgumentHelp("At most N items per source in the output.", valueName: "n"))
    var limit: Int?

    @Option(
        name: .long,
        help: "Item order within each source: the source's own (feed, page, file order) or newest first.")
    var sort: ItemOrder = .source

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

    @Flag(name: .long, help: "No network at all: HTTP sources are served from the cache, whatever its age.")
    var offline = false

    @Flag(name: .customLong("no-cache"), help: "Do not read the response cache (responses are still stored).")
    var noCache = false

    @Flag(name: .customLong("allow-stale"),
          help: "Exit 0 when a failed source was served from its last good copy (status stale).")
    var allowStale = false

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
    }

    func run() throws {
        Terminal.ignoreBrokenPipes()
        let interruption = Interruption()
        let logger = Logger(label: "aggregate") { label in
            StandardErrorLogHandler(label: label, level: verbose ? .info : .warning)
        }
        let container = try manifestOptions.loadContainer(logger: logger)
        let request = RunRequest(
            selection: selection.ids, query: query, deadlineSeconds: deadline,
            cacheMode: offline ? .offline : noCache ? .refresh : .normal, newOnly: new)
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
        let streamWriter = streamingWriter(to: stdout)
        let output: RunOutput = streamWriter.map { writer in
            .stream { source, items, more in writer.write(items, source: source.id, more: more) }
        } ?? .collect
        let outcome: RunOutcome
        do throws(SelectionError) {
            outcome = try container.runAndWait(request, cancellation: interruption.cancellation, observer: viewModel, output: output)
        } catch {
            throw ValidationError(error.description)
        }
        progress?.finish()  // before stdout: both usually share one terminal
        streamWriter?.flush()
        try exitIfInterrupted(interruption, output: stdout)
        let report = outcome.report.ordered(by: sort)
        if !quiet {
            for warning in outcome.warnings { Terminal.writeError("aggregate: warning: \(warning)\n") }
            for note in outcome.notes { Terminal.writeError("aggregate: \(note)\n") }
        }
        if streamWriter == nil {
            var stream = stdout
            let options = RenderOptions(
                limit: limit, verbose: verbose, color: format == .table && Terminal.stdoutWantsColor,
                width: Terminal.stdoutWidth)
            Renderers.renderer(for: format).render(report, options: options, to: &stream)
        }
        stdout.flush()

        reportOnStandardError(report)
        if report.hasFailures(allowingStale: allowStale) { throw ExitCode(ExitStatus.sourcesFailed) }
    }

    /// An interrupted run prints no report (what was streamed stays printed) and exits 128 + the signal; the run
    /// has already waited for what its sources started to be gone.
    private func exitIfInterrupted(_ interruption: Interruption, output: StandardOutput) throws {
        guard let status = interruption.exitStatus else { return }
        output.flush()
        if !quiet { Terminal.writeError("aggregate: interrupted; every program it started has been stopped\n") }
        throw ExitCode(status)
    }

    /// The writer for output that can go out while the run goes on: NDJSON in the sources' own order (a date
    /// sort needs every item first). It then writes every item; the final report keeps only their counts.
    private func streamingWriter(to output: StandardOutput) -> NDJSONStreamWriter? {
        guard format == .ndjson, sort == .source else { return nil }
        return NDJSONStreamWriter(limit: limit) { chunk in
            output.write(bytes: chunk)
            output.flush()  // the writer chose when: a full chunk, or a source's lines as they come
        }
    }

    /// Machine formats keep stdout clean, so failures and warnings are also told to the person on stderr.
    /// The table shows them itself.
    private func reportOnStandardError(_ report: AggregateReport) {
        for source in report.sources {
            if verbose {
                let milliseconds = Int((source.duration * 1000).rounded())
                Terminal.writeError(
                    "aggregate: \(source.id): \(source.status.rawValue), \(source.itemCount) items, \(milliseconds) ms\n")
            }
            guard !quiet, format != .table else { continue }
            if let error = source.error {
                Terminal.writeError("aggregate: \(source.id): \(source.status.rawValue) (\(error.kind.rawValue)): \(error.message)\n")
            }
            if source.status == .stale || source.cache == .stale, let message = source.message {
                Terminal.writeError("aggregate: \(source.id): \(message)\n")
            }
            for warning in source.warnings {
                Terminal.writeError("aggregate: \(source.id): warning: \(warning)\n")
            }
        }
    }
}

extension OutputFormat: ExpressibleByArgument {}
extension ItemOrder: ExpressibleByArgument {}
