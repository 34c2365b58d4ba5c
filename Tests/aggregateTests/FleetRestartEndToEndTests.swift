import Foundation
import ProviderTesting
import Testing

/// Workers that outlive a PostgreSQL restart (issue 41): on a cluster of the test's own, so that the restart
/// disturbs no other test.
@Suite("a fleet of workers when PostgreSQL restarts (end to end)", .serialized,
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct FleetRestartEndToEndTests {
    /// A long-running worker on `store`.
    static func worker(_ sandbox: Sandbox, store: String) throws -> LiveProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        environment["AGGREGATE_STORE"] = store
        environment["HOOK_SECRET"] = SinkSandbox.secret
        return try LiveProcess.start(
            Aggregate.binary, ["worker", "-f", "ndjson", "--batch", "10", "--manifest", sandbox.manifestPath],
            environment: environment)
    }

    /// How many feed items (not `news`) both workers printed so far (a line count: polled often).
    static func feedLines(_ workers: [LiveProcess]) -> Int {
        workers.map { $0.standardOutput.split(separator: "\n").filter { !$0.contains(#""source":"news""#) }.count }.reduce(0, +)
    }

    @Test("PostgreSQL restarted while workers run: they reconnect and go on; nothing lost or doubled")
    func restarted() async throws {
        let cluster = try await TestPostgresCluster.start()
        do {
            try await restarted(cluster)
        } catch {
            await cluster.stop()
            throw error
        }
    }

    private func restarted(_ cluster: TestPostgresCluster) async throws {
        let server = try await FixtureServer.start()
        server.fallback(try SharedStoreEndToEndTests.feed())
        // Two sources answer only once the restart is done: the workers hold their batches across it.
        let stalled = ["s0042", "s0257"]
        for id in stalled {
            server.route("/feeds/\(id).xml", [try SharedStoreEndToEndTests.feed().delayed(120), try SharedStoreEndToEndTests.feed()])
        }
        server.route("/hook", FixtureResponse(status: 204, body: Data()))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let sink = #"{"id": "hook", "type": "webhook", "url": "\#(receiver.url)", "secret": "${HOOK_SECRET}", "timeoutSeconds": 60}"#
        // 300 feeds due once in the test's time (hourly), and `news`, read every second, where new items appear.
        let news = #", {"id": "news", "provider": "files", "refreshSeconds": 1, "options": {"paths": ["data/news.ndjson"]}}"#
        let sandbox = try Sandbox(
            manifest: FleetEndToEndTests.manifest(sources: 300, server: server, refreshSeconds: 3600, extra: news, sinks: sink),
            files: ["data/news.ndjson": SinkSandbox.news(["a"])])

        let workers = try [Self.worker(sandbox, store: cluster.url), Self.worker(sandbox, store: cluster.url)]
        // Every feed asked for (the two stalled ones are held, their batches unfinished) and `news` delivered.
        let claimedAll = try await eventually(within: 120) {
            Set(server.requests.map(\.path).filter { $0.hasPrefix("/feeds/") }).count == 300 && receiver.itemIDs.contains("news/a")
        }
        try await cluster.restart()
        try SinkSandbox.write(["a", "b"], in: sandbox)
        let sawB = try await eventually(within: 120) { receiver.itemIDs.contains("news/b") }
        server.releaseStalls()
        let printedAll = try await eventually(within: 120) { Self.feedLines(workers) >= 1200 }
        try SinkSandbox.write(["a", "b", "c"], in: sandbox)
        let sawC = try await eventually(within: 120) { receiver.itemIDs.contains("news/c") }
        for worker in workers { worker.signal(SIGTERM) }
        var results: [ProcessResult] = []
        for worker in workers { results.append(await worker.finish()) }
        let requested = server.requests.filter { $0.path.hasPrefix("/feeds/") }.count
        var environment = ["AGGREGATE_STORE": cluster.url, "HOOK_SECRET": SinkSandbox.secret]
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        let after = try await Aggregate.run(["worker", "--once", "-f", "ndjson", "--manifest", sandbox.manifestPath], environment: environment)
        await server.stop()
        await cluster.stop()

        #expect(claimedAll, "every feed was asked for before the restart")
        #expect(sawB, "a worker claimed, ran and delivered after the restart: \(results.map(\.stderr))")
        #expect(printedAll && sawC, "the batches held across the restart finished, and the workers went on")
        for result in results { #expect(result.status == 0, "both workers lived until SIGTERM: \(result.stderr)") }
        let printed = results.flatMap { result in
            SharedStoreEndToEndTests.items(CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr))
                .filter { !$0.hasPrefix("news/") }
        }
        #expect(printed.count == 1200 && Set(printed).count == 1200, "each item of the 300 feeds printed once: \(printed.count)")
        #expect(requested == 300, "each feed fetched once: \(requested) requests")
        let paths = Dictionary(grouping: server.requests.map(\.path).filter { $0.hasPrefix("/feeds/") }, by: { $0 })
        #expect(paths.values.allSatisfy { $0.count == 1 }, "none twice: \(paths.filter { $0.value.count > 1 }.keys.sorted())")
        let delivered = receiver.itemIDs
        #expect(Set(delivered).count == 1203 && delivered.count == 1203, "each item delivered once: \(delivered.count)")
        #expect(after.status == 0, "stderr: \(after.stderr)")
        #expect(SharedStoreEndToEndTests.items(after).allSatisfy { $0.hasPrefix("news/") },
                "no feed was left due, held or lost by the restart: \(after.stderr)")
    }
}
