import Foundation
import ProviderTesting
import Testing

/// Workers that outlive their PostgreSQL going away (issue 41): a restart, and an outage while batches finish.
/// Each test has a cluster of its own, so that the fault disturbs no other test.
@Suite("a fleet of workers when PostgreSQL restarts or goes away (end to end)", .serialized,
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct FleetRestartEndToEndTests {
    /// What befalls the store while two batches are held.
    enum Fault {
        /// Restarted, then the held batches finish.
        case restart
        /// Stopped; the held batches finish while it is away (neither their completion nor their items for the
        /// sink can be stored); then started. Those batches run again soon after, to offer their items again.
        case outage
    }

    /// A long-running worker on `store`. Its claims last 15 minutes (renewed every 5), not the default 2 (every
    /// 40 s): nothing here waits for a claim to expire, and on a loaded machine a restart and a renewal late by a
    /// minute could let one expire, so that another worker fetched its feeds again and "each feed once" failed
    /// for the load, not for the worker.
    static func worker(_ sandbox: Sandbox, store: String) throws -> LiveProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        environment["AGGREGATE_STORE"] = store
        environment["HOOK_SECRET"] = SinkSandbox.secret
        return try LiveProcess.start(
            Aggregate.binary, ["worker", "-f", "ndjson", "--batch", "10", "--claim-seconds", "900", "--manifest", sandbox.manifestPath],
            environment: environment)
    }

    /// Waits until one of `workers` printed an item of `source`; false if both ended first.
    static func printed(_ source: String, by workers: [LiveProcess]) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            for worker in workers {
                group.addTask { await worker.waitFor { stdout, _ in stdout.contains(#""source":"\#(source)""#) } }
            }
            for await saw in group where saw {
                group.cancelAll()
                return true
            }
            return false
        }
    }

    /// How many feed items (not `news`) both workers printed so far (a line count: polled often).
    static func feedLines(_ workers: [LiveProcess]) -> Int {
        workers.map { $0.standardOutput.split(separator: "\n").filter { !$0.contains(#""source":"news""#) }.count }.reduce(0, +)
    }

    @Test("PostgreSQL restarted while workers run: they reconnect and go on; nothing lost or doubled")
    func restarted() async throws {
        try await Self.scenario(.restart)
    }

    @Test("PostgreSQL down while held batches finish: the workers tell the store once it is back and run those batches once more for the sink; each item delivered once, nothing lost")
    func outage() async throws {
        try await Self.scenario(.outage)
    }

    static func scenario(_ fault: Fault) async throws {
        let cluster = try await TestPostgresCluster.start()
        do {
            try await scenario(fault, cluster)
        } catch {
            await cluster.stop()
            throw error
        }
    }

    /// Two workers on 300 hourly feeds and `news`, read every second; two feeds answer only after the fault, so
    /// the workers hold two batches through it; then new items appear in `news`.
    private static func scenario(_ fault: Fault, _ cluster: TestPostgresCluster) async throws {
        let (server, receiver, sink) = try await FleetEndToEndTests.feedsAndHook(holding: ["s0042", "s0257"])
        let news = #", {"id": "news", "provider": "files", "refreshSeconds": 1, "options": {"paths": ["data/news.ndjson"]}}"#
        let sandbox = try Sandbox(
            manifest: FleetEndToEndTests.manifest(sources: 300, server: server, refreshSeconds: 3600, extra: news, sinks: sink),
            files: ["data/news.ndjson": SinkSandbox.news(["a"])])

        let workers = try [Self.worker(sandbox, store: cluster.url), Self.worker(sandbox, store: cluster.url)]
        // Every feed asked for (the two stalled ones are held, their batches unfinished) and `news` delivered.
        let claimedAll = await server.waitForRequests(within: 600) { requests in
            Set(requests.map(\.path).filter { $0.hasPrefix("/feeds/") }).count == 300
                && receiver.itemIDs(of: requests).contains("news/a")
        }
        var noticed = true
        switch fault {
        case .restart:
            try await cluster.restart()
        case .outage:
            try await cluster.pause()
            server.releaseStalls()
            // Both workers found the store gone: the one whose held batch finished, when it told the store.
            for worker in workers {
                let saw = await worker.waitFor { _, stderr in stderr.contains("aggregate: worker: ") }
                noticed = noticed && saw
            }
            // And both held batches finished while it was gone: a batch's items are printed once its sinks were
            // offered them, which the store's absence made fail. A store call waits a moment before failing, so
            // resuming on the first error alone could let a held batch's writes wait through the outage.
            for source in ["s0042", "s0257"] {
                let finished = await Self.printed(source, by: workers)
                noticed = noticed && finished
            }
            try await cluster.resume()
        }
        try SinkSandbox.write(["a", "b"], in: sandbox)
        let sawB = await receiver.waitFor(within: 600) { $0.contains("news/b") }
        server.releaseStalls()
        // Polls: a count over two programs' output, which no one program's event tells.
        let printedAll = try await eventually(within: 600) { Self.feedLines(workers) >= 1200 }
        try SinkSandbox.write(["a", "b", "c"], in: sandbox)
        let sawC = await receiver.waitFor(within: 600) { $0.contains("news/c") }
        let deliveredAll = await receiver.waitFor(within: 600) { Set($0).count == 1203 }
        for worker in workers { worker.signal(SIGTERM) }
        var results: [ProcessResult] = []
        for worker in workers { results.append(await worker.finish()) }
        let requested = server.requests.filter { $0.path.hasPrefix("/feeds/") }.count
        var environment = ["AGGREGATE_STORE": cluster.url, "HOOK_SECRET": SinkSandbox.secret]
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        let after = try await Aggregate.run(["worker", "--once", "-f", "ndjson", "--manifest", sandbox.manifestPath], environment: environment)
        await server.stop()
        await cluster.stop()

        let stderr = results.map(\.stderr)
        #expect(claimedAll, "every feed was asked for before the fault")
        #expect(noticed, "both workers found the store gone, and the held batches finished before it was back: \(stderr)")
        #expect(sawB, "a worker claimed, ran and delivered after the fault: \(stderr)")
        #expect(printedAll && sawC && deliveredAll, "the batches held through the fault finished, and the workers went on: \(stderr)")
        for result in results { #expect(result.status == 0, "both workers lived until SIGTERM: \(result.stderr)") }
        let printed = results.flatMap { result in
            SharedStoreEndToEndTests.items(CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr))
                .filter { !$0.hasPrefix("news/") }
        }
        let fetched = Dictionary(grouping: server.requests.map(\.path).filter { $0.hasPrefix("/feeds/") }, by: { $0 }).mapValues(\.count)
        #expect(Set(printed).count == 1200 && fetched.count == 300, "every feed ran, each of its items printed")
        // A batch whose store write met the fault runs once more (its items could not be recorded or queued for
        // the sink), and only such a batch: never a third time. Under load a restart can meet any batch still
        // writing, so the restart asserts that rule, not a count of requests; the outage always meets the held two.
        let twice = fetched.filter { $0.value == 2 }.keys
        #expect(fetched.values.allSatisfy { $0 <= 2 }, "\(fetched.filter { $0.value > 2 })")
        #expect(printed.count == 1200 + 4 * twice.count, "printed once per run: \(printed.count), \(twice.count) run twice")
        if fault == .outage {
            #expect(twice.contains("/feeds/s0042.xml") && twice.contains("/feeds/s0257.xml"), "the held batches ran again")
        }
        let delivered = receiver.itemIDs
        #expect(Set(delivered).count == 1203 && delivered.count == 1203, "each item delivered once: \(delivered.count)")
        #expect(after.status == 0, "stderr: \(after.stderr)")
        let again = SharedStoreEndToEndTests.items(after).filter { !$0.hasPrefix("news/") }
        #expect(again.isEmpty, "no feed was left due, held or lost by the fault: \(again.count) items, \(after.stderr)")
        #expect(server.requests.filter { $0.path.hasPrefix("/feeds/") }.count == requested, "and none fetched again")
    }
}
