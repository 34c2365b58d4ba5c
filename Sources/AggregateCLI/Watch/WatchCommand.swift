import App
import ArgumentParser
import Domain
import Foundation
import Logging
import Presentation
import ProviderKit

/// `aggregate watch`: keep every source fresh on its own schedule until stopped.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep running the sources, each on its own schedule, showing what is new.",
        discussion: """
            Each source runs every refreshSeconds (manifest, per source or in defaults; 300 by default, at \
            least 10 for sources that ask a service). A service that says its data stays fresh longer \
            (Cache-Control: max-age), or to come back later (Retry-After, a rate limit), is not asked before \
            then; a failing source backs off (doubling, at most 1 h) and returns to its schedule after a success.

            On a terminal: a full-screen view of every source (r refreshes all now, q quits). Otherwise \
            (-f ndjson, the default when stdout is not a terminal): each item once, when it is first seen; \
            -f json: one report per line for each source whose result changed. Status changes go to stderr \
            with --verbose.

            Sinks in the manifest get each cycle's new items (their failures go to stderr; a watch whose \
            last delivery to a sink failed ends with exit 1 unless --allow-sink-failures).

            Ctrl-C or SIGTERM stops cleanly (exit 0; a second one ends at once). SIGHUP reloads the manifest; \
            one that became invalid is reported and the old one keeps running.

            EXAMPLES
              aggregate watch                          full-screen view, live
              aggregate watch --sources weather,news   only these
              aggregate watch -f ndjson | my-notifier  one line per new item
              aggregate watch --dedupe url --jq .url   each new story's link, once
              aggregate watch --stop-after 10m         end cleanly after ten minutes
            """
    )

    enum Format: String, CaseIterable, EnumArgument {
        case view, ndjson, json
    }

    @OptionGroup var manifestOptions: ManifestOptions

    @OptionGroup var selection: SourceSelection

    @Option(name: [.customShort("f"), .long],
            help: "view (full screen; the default on a terminal), ndjson (the default otherwise) or json.")
    var format: Format?

    @Option(name: .customLong("stop-after"),
            help: ArgumentHelp("End cleanly after this long: 90, 30s, 10m, 1h30m.", valueName: "duration"))
    var stopAfter: WatchDuration?

    @Flag(name: .customLong("new-only"), help: "The first cycle too shows only items never seen before.")
    var newOnly = false

    @OptionGroup var shaping: ShapingOptions

    @Flag(name: .customLong("allow-sink-failures"),
          help: "Exit 0 even when a sink's last delivery failed (its items stay queued).")
    var allowSinkFailures = false

    @Flag(name: .shortAndLong, help: "No warnings on stderr.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Each source's status on stderr as it finishes, and one log line per request.")
    var verbose = false

    func validate() throws {
        if quiet, verbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
        if format == .view, !Terminal.stdoutIsTTY {
            throw ValidationError("-f view needs a terminal; use -f ndjson or -f json when stdout is a pipe or a file.")
        }
        if shaping.jq != nil, (format ?? .ndjson) != .ndjson {
            throw ValidationError("--jq applies to each new item: use it with -f ndjson.")
        }
    }

    func run() throws {
        Terminal.ignoreBrokenPipes()
        let logger = Logger(label: "aggregate") { label in
            StandardErrorLogHandler(label: label, level: verbose ? .info : .warning)
        }
        let container = try manifestOptions.loadContainer(logger: logger, selection: selection.ids)
        let format = self.format ?? (Terminal.stdoutIsTTY && shaping.jq == nil ? .view : .ndjson)
        let jq = try shaping.compiledJQ(compact: true)
        let front = WatchFrontEnds.make(format: format, verbose: verbose, quiet: quiet, jq: jq)
        // The full-screen view owns the terminal: sink failures only count for the exit status there.
        let sinks = SinkStatusLines(verbose: verbose && format != .view, quiet: quiet || format == .view)
        let watcher: Watcher
        do throws(SelectionError) {
            watcher = try Watcher(
                container: container,
                options: Watcher.Options(
                    selection: selection.ids, items: front.wantsEveryItem ? .all : .new(fromStart: newOnly),
                    output: front.outputs(ItemShaping(since: shaping.sinceDate(now: Date()), dedupe: shaping.dedupe))),
                observer: SinkReportingObserver(front, sinks: sinks))
        } catch {
            throw ValidationError(error.description)
        }
        let finished = DispatchGroup()
        finished.enter()
        let stop: @Sendable () -> Void = { watcher.stop { finished.leave() } }
        // The first Ctrl-C or SIGTERM stops the watch cleanly (exit 0); a second ends it at once, the screen given back.
        let interruption = Interruption(beforeForcedExit: { ScreenRestore.leave() })
        interruption.cancellation.onCancel(stop)
        Reload.onHangUp { [manifestOptions, selection, quiet] in
            if Self.reload(manifestOptions, selection: selection.ids, into: watcher, logger: logger, quiet: quiet) {
                front.reloaded(sources: watcher.sourceIDs)
            }
        }
        if let stopAfter {
            DispatchQueue.global().asyncAfter(deadline: .now() + stopAfter.seconds, execute: stop)
        }
        front.begin(watcher: watcher, sources: watcher.sourceIDs, onQuit: stop)
        watcher.start()
        finished.wait()  // the main thread's one blocking join; the watch runs on its own threads
        front.end()
        if sinks.hasFailures, !allowSinkFailures { throw ExitCode(ExitStatus.sourcesFailed) }
    }
}

extension WatchCommand {
    /// SIGHUP: the manifest again; an invalid one, or one without the `--sources`, leaves the old one running.
    /// Returns whether the new manifest runs now.
    @discardableResult
    static func reload(
        _ manifestOptions: ManifestOptions, selection: [String]?, into watcher: Watcher, logger: Logger, quiet: Bool
    ) -> Bool {
        reload(manifestOptions, selection: selection, logger: logger, quiet: quiet) { container throws(SelectionError) in
            try watcher.reload(container)
        }
    }

    /// SIGHUP for any front end that runs a manifest until stopped (`watch`, `serve`, `worker`): `apply` takes the
    /// reloaded manifest, its `selection`'s options checked (every source's for nil).
    @discardableResult
    static func reload(
        _ manifestOptions: ManifestOptions, selection: [String]? = nil, logger: Logger, quiet: Bool,
        apply: (AppDIContainer) throws(SelectionError) -> Void
    ) -> Bool {
        let path = manifestOptions.displayPath
        let reloaded: AppDIContainer
        do throws(ManifestError) {
            reloaded = try AppDIContainer.load(
                manifestAt: manifestOptions.manifestURL, registry: ActiveProviders.registry, logger: logger,
                selection: selection)
        } catch {
            Terminal.writeError("aggregate: \(path) is invalid; the old manifest keeps running:\n"
                + error.problems.map { "  \($0)\n" }.joined())
            return false
        }
        do throws(SelectionError) {
            try apply(reloaded)
        } catch {
            Terminal.writeError("aggregate: \(path) no longer fits --sources (\(error)); the old manifest keeps running\n")
            return false
        }
        if !quiet { Terminal.writeError("aggregate: reloaded \(path)\n") }
        return true
    }
}

/// `--stop-after`: `90`, `30s`, `10m`, `1h30m`, `2d` (`DurationText`).
struct WatchDuration: ExpressibleByArgument, Sendable {
    var seconds: Double

    init?(argument: String) {
        guard let seconds = DurationText.seconds(argument) else { return nil }
        self.seconds = seconds
    }
}
