import App
import ArgumentParser
import Domain
import Foundation
import Logging
import Presentation
import Server
import Synchronization

/// `aggregate worker`: one of any number of processes, on any number of machines, that share the sources of one
/// manifest through a PostgreSQL store.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run the fleet's due sources, sharing them with every other worker on the same PostgreSQL store.",
        discussion: """
            Start as many workers as you like, on as many machines, with the same manifest and the same store \
            (AGGREGATE_STORE or the manifest's store.url, postgres://…). Each source runs once per \
            refreshSeconds between them all: a worker claims due sources in batches, runs them as aggregate \
            does (cache, --new history, sinks) and schedules their next run; a failing source backs off as in \
            watch. Claims last --claim-seconds and are renewed while a worker lives: the sources of a worker \
            that dies (kill -9, a lost machine) are taken by another once its claims expire. There is no \
            scheduler to run and none to lose.

            The first worker makes its manifest the fleet's. A worker started with another manifest names the \
            sources that differ and stops (exit 78); --adopt-manifest makes its manifest the fleet's instead \
            (new sources are due at once, removed ones go). To change the fleet's manifest without restarting: \
            update the file on every machine and send SIGHUP to one worker; it makes its manifest the fleet's, \
            and the others read their files again within --claim-seconds/3. A worker whose file still differs \
            claims nothing, and says so, until it matches.

            Ctrl-C or SIGTERM stops cleanly: the sources it is running are given back, due as they were.

            --metrics HOST:PORT serves the worker's own Prometheus metrics on http://HOST:PORT/metrics: sources \
            claimed, sources run by outcome, claims given back or taken over by another worker, and the schedule \
            lag (how late each source was when claimed) as a histogram. Port 0 picks a free port; the address is \
            printed on stderr. The metrics name no source URL; the fleet's per-source state is `serve`'s.

            EXAMPLES
              aggregate worker                    run the fleet's sources until stopped
              aggregate worker --once -f ndjson   run what is due now, print its items, exit (cron)
              aggregate worker --adopt-manifest   roll out a changed manifest
              aggregate worker --metrics 0.0.0.0:9464   Prometheus scrapes this worker
              aggregate fleet status              the fleet's workers, due and overdue sources
            """
    )

    enum Format: String, CaseIterable, EnumArgument {
        case none, ndjson
    }

    @OptionGroup var manifestOptions: ManifestOptions

    @Flag(name: .long, help: "Claim and run until nothing is due, then exit (1 if a source it ran failed).")
    var once = false

    @Option(name: [.customShort("f"), .long],
            help: "none (the default: the items go to the store, history and sinks) or ndjson (each item of each source run, on stdout).")
    var format: Format = .none

    @Option(name: .long, help: ArgumentHelp("Sources claimed at a time.", valueName: "count"))
    var batch = 50

    @Option(name: .customLong("claim-seconds"),
            help: ArgumentHelp("How long a claim lasts unless renewed: how long a dead worker's sources wait.", valueName: "seconds"))
    var claimSeconds = 120.0

    @Flag(name: .customLong("adopt-manifest"), help: "Make this manifest the fleet's, even when the fleet runs another.")
    var adoptManifest = false

    @Option(name: .long,
            help: ArgumentHelp("Serve this worker's Prometheus metrics on http://HOST:PORT/metrics (port 0: a free one).",
                               valueName: "host:port"))
    var metrics: String?

    @Flag(name: .shortAndLong, help: "No warnings and no summary on stderr.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Each source's status on stderr as it finishes, and one log line per request.")
    var verbose = false

    func validate() throws {
        if quiet, verbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
        if batch < 1 { throw ValidationError("--batch must be at least 1.") }
        if claimSeconds < 3 { throw ValidationError("--claim-seconds must be at least 3 (a claim is renewed every third of it).") }
        if let metrics, ListenAddress(metrics) == nil {
            throw ValidationError("--metrics takes HOST:PORT, such as 127.0.0.1:9464, 0.0.0.0:9464 or [::1]:9464.")
        }
    }

    func run() throws {
        ServerMemory.configure()
        Terminal.ignoreBrokenPipes()
        let logger = Logger(label: "aggregate") { label in
            StandardErrorLogHandler(label: label, level: verbose ? .info : .warning)
        }
        let container = try manifestOptions.loadContainer(logger: logger)
        let stdout = StandardOutput()
        // Each source's lines go out as it finishes: a worker runs for days, and what it printed must not wait in
        // a buffer for the next 64 KiB, or die with it.
        let writer = format == .ndjson ? NDJSONStreamWriter(limit: nil) { chunk in
            stdout.write(bytes: chunk)
            stdout.flush()
        } : nil
        let lines = WorkerStatusLines(verbose: verbose, quiet: quiet, items: writer)
        let metricsServer = try metrics.flatMap(ListenAddress.init).map { try serveMetrics(on: $0, logger: logger) }
        let manifestOptions = self.manifestOptions
        // The manifest file again: when another worker made a new manifest the fleet's, and on SIGHUP. An invalid
        // one is reported and the worker keeps its manifest, as watch and serve do.
        let reload: @Sendable () -> AppDIContainer? = { [quiet] in
            var reloaded: AppDIContainer?
            WatchCommand.reload(manifestOptions, logger: logger, quiet: quiet) { reloaded = $0 }
            return reloaded
        }
        let worker = FleetWorker(
            container: container,
            options: FleetWorker.Options(
                once: once, batchSize: batch, holdSeconds: claimSeconds, adoptManifest: adoptManifest, reload: reload),
            observers: [lines] + (metricsServer.map { [$0.metrics] } ?? []))
        // Signals are heard from before the worker starts: one that comes while it registers is not lost, and
        // SIGHUP's default action (ending the process) never applies.
        let interruption = Interruption()
        interruption.cancellation.onCancel { worker.stop() }
        Reload.onHangUp {
            if let container = reload() { worker.adopt(container) }
        }
        let started = Date()
        do throws(FleetError) {
            let registration = try worker.start()
            lines.started(worker.id, registration: registration)
        } catch {
            metricsServer?.shutdown()
            Terminal.writeError("aggregate: \(error)\n")
            if case .manifestDiffers = error { throw ExitCode(ExitStatus.invalidManifest) }
            throw ExitCode(ExitStatus.sourcesFailed)
        }
        let summary = worker.wait()  // the main thread's one blocking join; the worker runs on its own threads
        metricsServer?.shutdown()
        writer?.flush()
        stdout.flush()
        lines.finished(worker.id, summary: summary, seconds: Date().timeIntervalSince(started))
        let failed = summary.sources - (summary.byStatus[.ok] ?? 0) - (summary.byStatus[.skipped] ?? 0)
        if once, failed > 0 { throw ExitCode(ExitStatus.sourcesFailed) }
    }

    /// Starts `--metrics`' server and waits until it listens (a port in use ends the worker before it claims).
    private func serveMetrics(on address: ListenAddress, logger: Logger) throws -> WorkerMetricsServer {
        let server = WorkerMetricsServer(metrics: WorkerMetrics(), listen: address, logger: logger)
        let outcome = Mutex<String?>(nil)
        let settled = DispatchSemaphore(value: 0)
        Task { [quiet] in
            do {
                try await server.run { port in
                    if !quiet {
                        Terminal.writeError("aggregate: worker metrics on http://\(ListenAddress(host: address.host, port: port))/metrics\n")
                    }
                    settled.signal()
                }
            } catch {
                outcome.withLock { $0 = "--metrics cannot listen on \(address): \(error)" }
                settled.signal()
            }
        }
        settled.wait()  // the main thread, before the worker starts: the server runs on its own threads
        if let message = outcome.withLock({ $0 }) {
            Terminal.writeError("aggregate: \(message)\n")
            throw ExitCode(ExitStatus.sourcesFailed)
        }
        return server
    }
}

/// What the worker tells: with `-f ndjson` each finished source's items on stdout; on stderr each source with
/// `--verbose`, store problems, and a summary at the end.
final class WorkerStatusLines: FleetObserver {
    let verbose: Bool
    let quiet: Bool
    let items: NDJSONStreamWriter?

    init(verbose: Bool, quiet: Bool, items: NDJSONStreamWriter?) {
        self.verbose = verbose
        self.quiet = quiet
        self.items = items
    }

    func started(_ id: String, registration: FleetRegistration) {
        guard verbose, case .registered(let added, let removed, let changed, _) = registration else { return }
        var line = "aggregate: worker \(id) started"
        if added + removed + changed > 0 {
            line += "; the fleet's manifest now: \(added) sources added, \(removed) removed, \(changed) changed"
        }
        Terminal.writeError(line + "\n")
    }

    func fleet(didFinish report: SourceReport, next: Date) {
        items?.write(report.items, source: report.id, more: false)
        guard verbose else { return }
        Terminal.writeError(WatchStatusLines.line(report, next: next))
    }

    func fleet(problem: String) {
        guard !quiet else { return }
        Terminal.writeError("aggregate: worker: \(problem)\n")
    }

    func finished(_ id: String, summary: FleetWorker.Summary, seconds: Double) {
        guard !quiet else { return }
        let statuses = SourceStatus.allCases.compactMap { status in
            summary.byStatus[status].map { "\($0) \(status.rawValue)" }
        }
        var line = "aggregate: worker \(id) ran \(summary.sources) source\(summary.sources == 1 ? "" : "s")"
        if !statuses.isEmpty { line += " (\(statuses.joined(separator: ", ")))" }
        line += " in \(summary.runs) batch\(summary.runs == 1 ? "" : "es"), \(String(format: "%.1f", seconds)) s"
        if summary.sources > 0 { line += "; longest past due \(String(format: "%.1f", summary.maxLagSeconds)) s" }
        Terminal.writeError(line + "\n")
    }
}
