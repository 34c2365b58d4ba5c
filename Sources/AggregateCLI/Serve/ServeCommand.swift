import App
import ArgumentParser
import Dispatch
import Foundation
import Logging
import Server
import Synchronization

/// `aggregate serve`: the watch's engine and schedule, its latest state over HTTP.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Keep every source fresh on its schedule and serve the latest state over HTTP.",
        discussion: """
            The sources run as in 'aggregate watch' (refreshSeconds, backoff, the response cache); the server \
            answers from their latest state: a dashboard for a fleet (/: summary, failing sources first, search \
            ?q=, filters ?status= and ?provider=; /sources/ID, /items), the JSON report a page of sources at a \
            time (/api/report), items with filters (/api/items), source status (/api/sources), live events \
            (/events), Prometheus metrics (/metrics), the newest 100 entries as Atom and JSON Feed (/feed.atom, \
            /feed.json; ?limit=, ?source=), /healthz and /readyz. See docs/WATCH_AND_SERVE.md, "Serving".

            Only a loopback address (127.0.0.1, ::1, localhost) may be listened on unless a token is configured \
            (--token-file, or AGGREGATE_SERVE_TOKEN); with a token every request needs Authorization: Bearer <token> (the \
            dashboard has a login form), and POST /api/sources/ID/refresh works. The token is never printed.

            SIGTERM or Ctrl-C: responses in flight finish, event streams close, exit 0. SIGHUP reloads the \
            manifest.

            With a fleet ('aggregate worker' processes on a shared PostgreSQL store), --no-worker runs no source: \
            the server shows what the workers stored, read from the store every second, and a refresh makes the \
            source due for the fleet. Any number of such servers show the same report. See docs/STORES.md, "A fleet \
            of workers".

            EXAMPLES
              aggregate serve                                   http://127.0.0.1:8080
              aggregate serve --listen 127.0.0.1:9000 --sources news,issues
              AGGREGATE_SERVE_TOKEN=s3cret aggregate serve --listen 0.0.0.0:8080
              AGGREGATE_STORE=postgres://db/agg aggregate serve --no-worker   beside 'aggregate worker's
            """
    )

    @OptionGroup var manifestOptions: ManifestOptions

    @OptionGroup var selection: SourceSelection

    @Option(name: .long, help: ArgumentHelp("Address and port to listen on (port 0: any free port).", valueName: "host:port"))
    var listen: String = "127.0.0.1:8080"

    @Option(name: .customLong("token-file"),
            help: ArgumentHelp("A file holding the token clients must send (else $AGGREGATE_SERVE_TOKEN).", valueName: "path"))
    var tokenFile: String?

    @Option(name: .customLong("metrics-sources"), help: ArgumentHelp(
        "/metrics series per source: on, off, or auto (per source up to \(MetricsSources.autoBound) sources, fleet-wide beyond).",
        valueName: "auto|on|off"))
    var metricsSources: MetricsSources = .auto

    @Flag(name: .customLong("no-worker"), help: ArgumentHelp(
        "Run no source: show what a fleet's workers stored in the shared PostgreSQL store.", visibility: .default))
    var noWorker = false

    @Flag(name: .shortAndLong, help: "Log lines on stderr at info level (one per request a source makes).")
    var verbose = false

    func validate() throws {
        guard ListenAddress(listen) != nil else {
            throw ValidationError("--listen takes HOST:PORT, such as 127.0.0.1:8080 or [::1]:8080.")
        }
    }

    func run() throws {
        Terminal.ignoreBrokenPipes()
        ServerMemory.configure()
        let logger = Logger(label: "aggregate") { label in
            StandardErrorLogHandler(label: label, level: verbose ? .info : .warning)
        }
        var settings = ServeConfiguration(listen: ListenAddress(listen)!, token: try token())
        settings.metricsSources = metricsSources
        settings.followsFleet = noWorker
        let configuration = settings
        if let refusal = configuration.refusal {
            Terminal.writeError("aggregate: \(refusal)\n")
            throw ExitCode(ExitStatus.usage)
        }
        let container = try manifestOptions.loadContainer(logger: logger, selection: selection.ids)
        if noWorker, !container.storeIsShared {
            Terminal.writeError("""
                aggregate: serve --no-worker shows what a fleet's workers stored in a shared store; the store is \
                \(container.storeDisplayName). Set AGGREGATE_STORE (or the manifest's store.url) to postgres://…, or \
                leave out --no-worker to run the sources here.

                """)
            throw ExitCode(ExitStatus.usage)
        }
        let server: AggregateServer
        do throws(SelectionError) {
            server = try AggregateServer(container: container, configuration: configuration, selection: selection.ids, logger: logger)
        } catch {
            throw ValidationError(error.description)
        }
        let interruption = Interruption()
        interruption.cancellation.onCancel { server.shutdown() }
        Reload.onHangUp { [manifestOptions, selection] in
            WatchCommand.reload(manifestOptions, selection: selection.ids, logger: logger, quiet: false) {
                container throws(SelectionError) in
                try server.reload(container)
            }
        }
        let failure = Mutex<String?>(nil)
        let finished = DispatchGroup()
        finished.enter()
        let host = configuration.listen
        Task {
            do {
                try await server.run { port in
                    let shown = ListenAddress(host: host.host, port: port)
                    Terminal.writeError("aggregate: serving http://\(shown)/ (\(configuration.token == nil ? "no token" : "token required"))\n")
                }
            } catch {
                failure.withLock { $0 = "cannot serve on \(host): \(error)" }
            }
            finished.leave()
        }
        finished.wait()  // the main thread's one blocking join; the server runs on its own threads
        if let message = failure.withLock({ $0 }) {
            Terminal.writeError("aggregate: \(message)\n")
            throw ExitCode(ExitStatus.sourcesFailed)
        }
    }

    /// `--token-file` (its first line), else `AGGREGATE_SERVE_TOKEN`; nil when neither gives one.
    private func token() throws -> ServeToken? {
        if let tokenFile {
            guard let text = try? String(contentsOfFile: (tokenFile as NSString).expandingTildeInPath, encoding: .utf8) else {
                throw ValidationError("--token-file \(tokenFile) cannot be read.")
            }
            guard let token = ServeToken(text.split(separator: "\n").first.map(String.init) ?? "") else {
                throw ValidationError("--token-file \(tokenFile) is empty.")
            }
            return token
        }
        return ProcessInfo.processInfo.environment["AGGREGATE_SERVE_TOKEN"].flatMap(ServeToken.init)
    }
}

extension MetricsSources: EnumArgument {}
