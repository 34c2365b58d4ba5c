import Foundation
import ProviderTesting
import Synchronization
import Testing

/// `aggregate worker` processes sharing one PostgreSQL store: the fleet (issue 41). Each test has its own
/// database and fixture server; the server counts requests per path.
@Suite("a fleet of workers on one PostgreSQL store (end to end)", .serialized,
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct FleetEndToEndTests {
    /// `count` feed sources `s0000`, `s0001`, … at `/feeds/<id>.xml`, each due every `refreshSeconds` (the
    /// manifest's default when nil).
    static func manifest(
        sources count: Int, server: FixtureServer, refreshSeconds: Int? = nil, extra: String = "", sinks: String = ""
    ) -> String {
        let base = server.baseURL.absoluteString
        let sources = (0..<count).map { index in
            let id = String(format: "s%04d", index)
            return #"{"id": "\#(id)", "provider": "feed", "timeoutSeconds": 120, "options": {"urls": ["\#(base)/feeds/\#(id).xml"]}}"#
        }
        return """
            {"version": 1, "defaults": {"cacheTTLSeconds": 0\(refreshSeconds.map { #", "refreshSeconds": \#($0)"# } ?? "")},
             "sources": [\(sources.joined(separator: ",\n"))\(extra)]\(sinks.isEmpty ? "" : ", \"sinks\": [\(sinks)]")}
            """
    }

    struct Fleet {
        let sandbox: Sandbox
        let store: String

        init(manifest: String) async throws {
            sandbox = try Sandbox(manifest: manifest)
            store = try await TestPostgres.makeDatabase()
        }

        func run(
            _ arguments: [String], manifest: String? = nil, whileRunning: (pid_t) async throws -> Void = { _ in }
        ) async throws -> CommandResult {
            try await Aggregate.run(
                arguments + ["--manifest", manifest ?? sandbox.manifestPath],
                environment: ["AGGREGATE_STORE": store, "HOOK_SECRET": SinkSandbox.secret], whileRunning: whileRunning)
        }

        /// Polls `aggregate fleet status` until `condition` holds of it (false if it never did within `seconds`).
        func awaitStatus(within seconds: Double = 60, _ condition: ([String: Any]) -> Bool) async throws -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(try await status()) { return true }
                try await Task.sleep(for: .milliseconds(100))  // other processes' state: only the store shows it
            }
            return false
        }

        /// `aggregate fleet status -f json`.
        func status() async throws -> [String: Any] {
            let result = try await run(["fleet", "status", "-f", "json"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// A fixture server with a feed for every path, whose first answers for `held` hang (until `releaseStalls`),
    /// and a webhook receiver; `sink` is the manifest's webhook sink for it.
    static func feedsAndHook(holding held: [String]) async throws -> (server: FixtureServer, receiver: SinkReceiver, sink: String) {
        let server = try await FixtureServer.start()
        server.fallback(try SharedStoreEndToEndTests.feed())
        for id in held {
            server.route("/feeds/\(id).xml", [try SharedStoreEndToEndTests.feed().delayed(120), try SharedStoreEndToEndTests.feed()])
        }
        server.route("/hook", FixtureResponse(status: 204, body: Data()))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let sink = #"{"id": "hook", "type": "webhook", "url": "\#(receiver.url)", "secret": "${HOOK_SECRET}", "timeoutSeconds": 60}"#
        return (server, receiver, sink)
    }

    /// The (source, id) of every NDJSON line.
    static func items(_ result: CommandResult) -> [String] {
        SharedStoreEndToEndTests.items(result)
    }

    /// The count of sources a worker's summary line says it ran.
    static func sourcesRun(_ result: CommandResult) -> Int? {
        guard let range = result.stderr.range(of: #"ran (\d+) source"#, options: .regularExpression) else { return nil }
        return Int(result.stderr[range].split(separator: " ")[1])
    }

    @Test("4 workers with --once on 2,000 sources: each source fetched once, each item printed once, every worker ran some")
    func fourWorkersShare() async throws {
        let server = try await FixtureServer.start()
        server.fallback(try SharedStoreEndToEndTests.feed().delayed(0.05))
        let fleet = try await Fleet(manifest: Self.manifest(sources: 2000, server: server))

        let workers = try await withThrowingTaskGroup(of: CommandResult.self) { group in
            for _ in 0..<4 { group.addTask { try await fleet.run(["worker", "--once", "-f", "ndjson"]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let again = try await fleet.run(["worker", "--once", "-f", "ndjson"])
        let status = try await fleet.status()
        await server.stop()

        for worker in workers { #expect(worker.status == 0, "stderr: \(worker.stderr)") }
        let paths = Dictionary(grouping: server.requests.map(\.path), by: { $0 }).mapValues(\.count)
        #expect(paths.count == 2000, "every source fetched")
        #expect(paths.values.allSatisfy { $0 == 1 }, "none twice: \(paths.filter { $0.value > 1 }.prefix(5))")
        let union = workers.flatMap(Self.items)
        #expect(union.count == 8000, "4 items in each of 2,000 feeds")
        #expect(Set(union).count == 8000, "no item printed by two workers")
        let ran = workers.map { Self.sourcesRun($0) ?? 0 }
        #expect(ran.reduce(0, +) == 2000, "the summaries add up: \(ran)")
        #expect(ran.allSatisfy { $0 > 0 }, "each worker ran some: \(ran)")
        #expect(again.status == 0 && Self.items(again).isEmpty, "nothing is due until the interval passed")
        #expect(status["sources"] as? Int == 2000)
        #expect(status["due"] as? Int == 0 && status["held"] as? Int == 0, "\(status)")
    }

    @Test("a worker with another manifest names the sources that differ and stops; --adopt-manifest makes its manifest the fleet's")
    func otherManifest() async throws {
        let server = try await FixtureServer.start()
        server.fallback(try SharedStoreEndToEndTests.feed())
        let fleet = try await Fleet(manifest: Self.manifest(sources: 3, server: server))
        let first = try await fleet.run(["worker", "--once"])

        // s0001 dropped, s0002 fetches another URL, s0009 is new.
        let base = server.baseURL.absoluteString
        let other = try Sandbox(manifest: """
            {"version": 1, "sources": [
              {"id": "s0000", "provider": "feed", "options": {"urls": ["\(base)/feeds/s0000.xml"]}},
              {"id": "s0002", "provider": "feed", "options": {"urls": ["\(base)/feeds/moved.xml"]}},
              {"id": "s0009", "provider": "feed", "options": {"urls": ["\(base)/feeds/s0009.xml"]}}]}
            """)
        let before = server.requestCount
        let refused = try await fleet.run(["worker", "--once"], manifest: other.manifestPath)
        let afterRefused = server.requestCount
        let adopted = try await fleet.run(["worker", "--once", "--adopt-manifest", "-f", "ndjson"], manifest: other.manifestPath)
        await server.stop()

        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("only in this manifest: s0009"), "\(refused.stderr)")
        #expect(refused.stderr.contains("only in the fleet's: s0001"))
        #expect(refused.stderr.contains("other options or interval: s0002"))
        #expect(refused.stderr.contains("--adopt-manifest"))
        #expect(afterRefused == before, "the refused worker fetched nothing")
        #expect(adopted.status == 0, "stderr: \(adopted.stderr)")
        let sources = Set(Self.items(adopted).map { $0.split(separator: "/")[0] })
        #expect(sources == ["s0002", "s0009"], "the changed and the new source are due at once; s0000 is not")
    }

    @Test("kill -9 of a worker holding claims: another worker runs its sources once the claims expire; a sink gets each item once")
    func killedWorker() async throws {
        // The first answers for s0004 and s0005 hang: the worker is killed while it holds them.
        let (server, receiver, sink) = try await Self.feedsAndHook(holding: ["s0004", "s0005"])
        let fleet = try await Fleet(manifest: Self.manifest(sources: 6, server: server, sinks: sink))

        let held = Mutex(false)
        let killed = try await fleet.run(["worker", "--batch", "2", "--claim-seconds", "6"]) { pid in
            // Two batches finished (16 items delivered, the store told), the third hanging on its two requests.
            let hanging = await server.waitForRequests(within: 60) { requests in
                receiver.itemIDs(of: requests).count == 16
                    && ["s0004", "s0005"].allSatisfy { id in requests.count { $0.path == "/feeds/\(id).xml" } == 1 }
            }
            #expect(hanging, "received \(receiver.itemIDs.count)")
            let holding = try await fleet.awaitStatus { $0["held"] as? Int == 2 && $0["due"] as? Int == 0 }
            held.withLock { $0 = holding }
            kill(pid, SIGKILL)
        }
        let expired = try await fleet.awaitStatus { $0["due"] as? Int == 2 && $0["held"] as? Int == 0 }
        let other = try await fleet.run(["worker", "--once", "-f", "ndjson"])
        await server.stop()

        #expect(killed.status == 128 + SIGKILL || killed.status == SIGKILL, "status \(killed.status)")
        #expect(held.withLock { $0 }, "the worker held the hanging batch's two sources, and only those")
        #expect(expired, "the dead worker's claims expired: its two sources are due, held by nobody")
        #expect(other.status == 0, "stderr: \(other.stderr)")
        #expect(Set(Self.items(other).map { $0.split(separator: "/")[0] }) == ["s0004", "s0005"])
        #expect(receiver.itemIDs.count == 24, "every item of the 6 sources delivered: \(receiver.itemIDs.count)")
        #expect(Set(receiver.itemIDs).count == 24, "and none twice")
    }

    @Test("SIGTERM: the worker ends at once with exit 0 and gives back the source it was running, due for another worker")
    func terminatedWorker() async throws {
        let server = try await FixtureServer.start()
        server.fallback(try SharedStoreEndToEndTests.feed())
        server.route("/feeds/s0001.xml", [try SharedStoreEndToEndTests.feed().delayed(120), try SharedStoreEndToEndTests.feed()])
        let fleet = try await Fleet(manifest: Self.manifest(sources: 2, server: server))

        let stopped = try await fleet.run(["worker", "-f", "ndjson"]) { pid in
            let hanging = await server.waitForRequests(path: "/feeds/s0001.xml", count: 1, within: 60)
            #expect(hanging)
            kill(pid, SIGTERM)
        }
        let status = try await fleet.status()
        let other = try await fleet.run(["worker", "--once", "-f", "ndjson"])
        server.releaseStalls()
        await server.stop()

        #expect(stopped.status == 0, "stderr: \(stopped.stderr)")
        // s0000 may or may not have finished before the signal: either way it is printed once in all.
        #expect(status["held"] as? Int == 0 && (status["due"] as? Int ?? 0) >= 1, "given back, due: \(status)")
        #expect(Self.items(other).contains { $0.hasPrefix("s0001/") }, "the hanging source ran again elsewhere")
        let union = Self.items(stopped) + Self.items(other)
        #expect(union.count == 8 && Set(union).count == 8, "each item of both sources printed once: \(union)")
    }

    @Test("SIGHUP makes a worker's updated manifest the fleet's without restarts; a worker whose file did not change claims none of the new sources and says so")
    func manifestChangedLive() async throws {
        let server = try await FixtureServer.start()
        server.fallback(try SharedStoreEndToEndTests.feed())
        let fleet = try await Fleet(manifest: Self.manifest(sources: 2, server: server))
        let stale = try Sandbox(manifest: Self.manifest(sources: 2, server: server))
        let pids = Mutex<[pid_t]>([])
        let arguments = ["worker", "-f", "ndjson", "--claim-seconds", "3"]
        // The second worker (its own file, never updated), running until the first one's test is done.
        let other = Task {
            try await fleet.run(arguments, manifest: stale.manifestPath) { pid in pids.withLock { $0.append(pid) } }
        }
        let updated = try await fleet.run(arguments) { pid in
            let ran = try await eventually(within: 60) {  // polls: the other worker's start is told by no event
                pids.withLock { $0.count } == 1 && server.requests.count == 2
            }
            #expect(ran, "both sources ran once")
            let registered = try await fleet.awaitStatus { ($0["workers"] as? [[String: Any]])?.count == 2 }
            #expect(registered, "both workers registered")
            // A third source in the first worker's file, then SIGHUP: its manifest becomes the fleet's.
            try Data(Self.manifest(sources: 3, server: server).utf8).write(to: URL(fileURLWithPath: fleet.sandbox.manifestPath))
            kill(pid, SIGHUP)
            let added = await server.waitForRequests(path: "/feeds/s0002.xml", count: 1, within: 60)
            #expect(added, "the new source ran")
            let noticed = try await fleet.awaitStatus { status in
                let workers = status["workers"] as? [[String: Any]] ?? []
                return workers.contains { $0["manifestDiffers"] as? Bool == true }
            }
            #expect(noticed, "the worker with the old file is listed as differing")
            for other in pids.withLock({ $0 }) { kill(other, SIGTERM) }
            kill(pid, SIGTERM)
        }
        let stayed = try await other.value
        await server.stop()

        #expect(updated.status == 0, "stderr: \(updated.stderr)")
        #expect(stayed.status == 0, "stderr: \(stayed.stderr)")
        #expect(server.requests(path: "/feeds/s0002.xml").count == 1, "the new source ran once, by the worker that knows it")
        #expect(!Self.items(stayed).contains { $0.hasPrefix("s0002/") })
        #expect(stayed.stderr.contains("claims nothing until its own is the same"), "\(stayed.stderr)")
        #expect(stayed.stderr.contains("only in the fleet's: s0002"))
        #expect(!stayed.stderr.contains("could not run"), "it never claimed a source it does not know")
    }
}
