import Foundation
import ProviderTesting
import Synchronization
import Testing

/// Many `aggregate` processes on one manifest sharing one PostgreSQL store (`AGGREGATE_STORE`), each with its
/// own data directory, against the loopback fixture server (which counts requests, answering after 100 ms).
@Suite("aggregate on a shared PostgreSQL store, many processes (end to end)", .serialized,
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct SharedStoreEndToEndTests {
    static let processes = 8

    static func feed() throws -> FixtureResponse {
        guard let url = Bundle.module.url(forResource: "Fixtures/rss2_spec_sample_liftoff_news.xml", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try .file(url, contentType: "application/rss+xml")
    }

    /// Both feeds, each answered after 100 ms.
    static func serveFeeds(on server: FixtureServer) throws {
        server.route("/feeds/alpha.xml", try feed().delayed(0.1))
        server.route("/feeds/beta.xml", try feed().delayed(0.1))
    }

    /// Two feed sources on `server`, and the fresh database every process of the test shares.
    struct Shared {
        let sandbox: Sandbox
        let store: String

        init(server: FixtureServer, extra: String = "", sinks: String = "") async throws {
            let base = server.baseURL.absoluteString
            sandbox = try Sandbox(manifest: """
                {"version": 1, "defaults": {"cacheTTLSeconds": 300},
                 "sources": [
                   {"id": "alpha", "provider": "feed", "timeoutSeconds": 60, "options": {"urls": ["\(base)/feeds/alpha.xml"]}},
                   {"id": "beta", "provider": "feed", "timeoutSeconds": 60, "options": {"urls": ["\(base)/feeds/beta.xml"]}}
                   \(extra)
                 ]\(sinks.isEmpty ? "" : ", \"sinks\": [\(sinks)]")}
                """)
            store = try await TestPostgres.makeDatabase()
        }

        func run(_ arguments: [String], whileRunning: (pid_t) async throws -> Void = { _ in }) async throws -> CommandResult {
            try await Aggregate.run(
                arguments + ["--manifest", sandbox.manifestPath],
                environment: ["AGGREGATE_STORE": store, "HOOK_SECRET": SinkSandbox.secret], whileRunning: whileRunning)
        }

        /// Polls the server until a session of this test's database waits for an advisory lock (a fetch lease held
        /// by another process); false if none did within `seconds`.
        func awaitLeaseWaiter(within seconds: Double = 60) async throws -> Bool {
            let name = URL(string: store)?.lastPathComponent ?? ""
            let sql = "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database "
                + "WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = '\(name)'"
            for _ in 0..<Int(seconds * 10) {
                let waiting = try await TestPostgres.administer(sql).trimmingCharacters(in: .whitespacesAndNewlines)
                if let count = Int(waiting), count > 0 { return true }
                try await Task.sleep(for: .milliseconds(100))  // another process's lock wait: only pg_locks shows it
            }
            return false
        }

        /// `count` processes at once, each with its own data directory: only the database is shared.
        func runConcurrently(_ arguments: [String], count: Int = SharedStoreEndToEndTests.processes) async throws -> [CommandResult] {
            try await withThrowingTaskGroup(of: CommandResult.self) { group in
                for _ in 0..<count { group.addTask { try await run(arguments) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
    }

    /// The (source, id) of every NDJSON line.
    static func items(_ result: CommandResult) -> [String] {
        result.stdout.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let source = object["source"] as? String, let id = object["id"] as? String else { return nil }
            return "\(source)/\(id)"
        }
    }

    @Test("8 processes at once: one request per source request between them, and all 8 print the same items")
    func oneRequestEach() async throws {
        let server = try await FixtureServer.start()
        try Self.serveFeeds(on: server)
        let shared = try await Shared(server: server)

        let results = try await shared.runConcurrently(["-f", "ndjson"])
        await server.stop()

        for result in results { #expect(result.status == 0, "stderr: \(result.stderr)") }
        #expect(server.requests(path: "/feeds/alpha.xml").count == 1, "not one per process")
        #expect(server.requests(path: "/feeds/beta.xml").count == 1)
        let first = Set(Self.items(results[0]))
        #expect(first.count == 8, "4 items in each of the two feeds")
        #expect(results.allSatisfy { Set(Self.items($0)) == first })
    }

    @Test("--new on 8 processes at once: the union of their outputs holds each item exactly once; a later run prints none")
    func announceOnce() async throws {
        let server = try await FixtureServer.start()
        try Self.serveFeeds(on: server)
        let shared = try await Shared(server: server)

        let results = try await shared.runConcurrently(["-f", "ndjson", "--new"])
        let later = try await shared.run(["-f", "ndjson", "--new"])
        await server.stop()

        for result in results { #expect(result.status == 0, "stderr: \(result.stderr)") }
        let union = results.flatMap(Self.items)
        #expect(union.count == 8)
        #expect(Set(union).count == 8, "no item announced by two processes")
        #expect(later.status == 0)
        #expect(Self.items(later).isEmpty)
    }

    @Test("kill -9 of the process fetching: the one waiting for its lease fetches instead; with --new nothing lost or doubled")
    func killedLeaseHolder() async throws {
        let server = try await FixtureServer.start()
        // The first answer is slow (the holder is killed while waiting for it); later ones are prompt.
        server.route("/feeds/alpha.xml", [try Self.feed().delayed(30), try Self.feed()])
        server.route("/feeds/beta.xml", try Self.feed())
        let shared = try await Shared(server: server)

        let waiter = Mutex<Task<CommandResult, any Error>?>(nil)
        let holder = try await shared.run(["-f", "ndjson", "--new", "--sources", "alpha"]) { pid in
            #expect(try await eventually { server.requests(path: "/feeds/alpha.xml").count == 1 })
            waiter.withLock { $0 = Task { try await shared.run(["-f", "ndjson", "--new", "--sources", "alpha"]) } }
            // The waiter is blocked on the holder's advisory lock (the event, seen by the server) before the kill.
            let waiting = try await shared.awaitLeaseWaiter()
            #expect(waiting, "the second process never waited for the lease")
            #expect(server.requests(path: "/feeds/alpha.xml").count == 1, "the waiter sent nothing while it waited")
            kill(pid, SIGKILL)
        }
        let waited = try await #require(waiter.withLock { $0 }).value
        let after = try await shared.run(["-f", "ndjson", "--new", "--sources", "alpha"])
        await server.stop()

        #expect(holder.status == 128 + SIGKILL || holder.status == SIGKILL, "status \(holder.status)")
        #expect(Self.items(holder).isEmpty)
        #expect(waited.status == 0, "stderr: \(waited.stderr)")
        #expect(Set(Self.items(waited)).count == 4, "the waiter fetched once the dead holder's lease was released")
        #expect(server.requests(path: "/feeds/alpha.xml").count == 2, "the killed fetch and the waiter's")
        #expect(Self.items(after).isEmpty, "announced once: by the waiter")
    }

    @Test("a webhook sink fed by 8 processes at once: the receiver gets each item exactly once")
    func sinkOnce() async throws {
        let server = try await FixtureServer.start()
        try Self.serveFeeds(on: server)
        server.route("/hook", FixtureResponse(status: 204, body: Data()))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let sink = #"{"id": "hook", "type": "webhook", "url": "\#(receiver.url)", "secret": "${HOOK_SECRET}", "#
            + #""sources": ["alpha", "beta"], "batch": 2, "timeoutSeconds": 60}"#
        let shared = try await Shared(server: server, sinks: sink)

        let results = try await shared.runConcurrently(["-f", "ndjson"])
        // Deliveries queued by a process while another was sending for the sink go out with the next run.
        let flush = try await shared.run(["-f", "ndjson"])
        await server.stop()

        for result in results + [flush] { #expect(result.status == 0, "stderr: \(result.stderr)") }
        let every = receiver.deliveries
        #expect(every.allSatisfy { $0.signatureValid })
        #expect(every.flatMap(\.itemIDs).count == 8, "every POST counted, not only distinct ones")
        #expect(Set(every.flatMap(\.itemIDs)).count == 8)
    }

    @Test("a rate limit one process learnt (429, Retry-After) is respected by another: it sends nothing until it lifts")
    func sharedRateLimit() async throws {
        let server = try await FixtureServer.start()
        server.route("/feeds/alpha.xml", [
            FixtureResponse(status: 429, headers: [("Retry-After", "300")], body: Data("slow down".utf8)), try Self.feed(),
        ])
        let shared = try await Shared(server: server)

        let first = try await shared.run(["-f", "json", "--sources", "alpha"])
        let second = try await shared.run(["-f", "json", "--sources", "alpha"])
        await server.stop()

        #expect(first.status == 1)
        #expect(second.status == 1)
        #expect(server.requests(path: "/feeds/alpha.xml").count == 1, "the second process did not ask")
        let error = try #require(try second.sources().first?["error"] as? [String: Any])
        #expect(error["kind"] as? String == "rateLimited", "\(second.stdout)")
    }

    @Test("kill -9 of a process while it delivers to a sink: another process sends the same delivery (same id), nothing lost")
    func sinkSenderKilled() async throws {
        let server = try await FixtureServer.start()
        server.route("/feeds/alpha.xml", try Self.feed())
        server.route("/feeds/beta.xml", try Self.feed())
        // The first delivery hangs (its sender is killed meanwhile); later ones are taken at once.
        server.route("/hook", [FixtureResponse(status: 204, body: Data()).delayed(30), FixtureResponse(status: 204, body: Data())])
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let sink = #"{"id": "hook", "type": "webhook", "url": "\#(receiver.url)", "secret": "${HOOK_SECRET}", "#
            + #""sources": ["alpha"], "timeoutSeconds": 60}"#
        let shared = try await Shared(server: server, sinks: sink)

        let killed = try await shared.run(["-f", "ndjson"]) { pid in
            let sending = try await eventually { server.requests(path: "/hook").count == 1 }
            #expect(sending)
            kill(pid, SIGKILL)
        }
        let next = try await shared.run(["-f", "ndjson"])
        await server.stop()

        #expect(killed.status == 128 + SIGKILL || killed.status == SIGKILL, "status \(killed.status)")
        #expect(next.status == 0, "stderr: \(next.stderr)")
        let every = receiver.deliveries
        #expect(every.count == 2)
        #expect(Set(every.map(\.id)).count == 1, "the same delivery again, with its id")
        #expect(receiver.itemIDs.count == 4 && Set(receiver.itemIDs).count == 4, "each of alpha's items once by deliveryId")
    }
}
