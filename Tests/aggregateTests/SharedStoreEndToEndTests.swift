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
        server.route("/feeds/alpha.xml", try Self.feed().delayed(0.1))
        server.route("/feeds/beta.xml", try Self.feed().delayed(0.1))
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
        server.route("/feeds/alpha.xml", try Self.feed().delayed(0.1))
        server.route("/feeds/beta.xml", try Self.feed().delayed(0.1))
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
            try await Task.sleep(for: .seconds(1))  // let it reach the lease (if it has not, it simply takes it itself)
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
        server.route("/feeds/alpha.xml", try Self.feed().delayed(0.1))
        server.route("/feeds/beta.xml", try Self.feed().delayed(0.1))
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

    @Test("a store that cannot be reached: exit 1 naming the host and never the password; --store-optional warns and runs")
    func unreachable() async throws {
        let sandbox = try Sandbox(
            manifest: #"{"version": 1, "sources": [{"id": "news", "provider": "files", "options": {"paths": ["data/news.ndjson"]}}]}"#,
            files: ["data/news.ndjson": SinkSandbox.news(["a"])])
        let store = "postgres://aggregate:Sup3r-secret@127.0.0.1:1/shared?sslmode=disable"
        let refused = try await Aggregate.run(
            ["-f", "ndjson", "--manifest", sandbox.manifestPath], environment: ["AGGREGATE_STORE": store])
        let optional = try await Aggregate.run(
            ["-f", "ndjson", "--store-optional", "--manifest", sandbox.manifestPath], environment: ["AGGREGATE_STORE": store])

        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty, "nothing runs")
        #expect(refused.stderr.contains("127.0.0.1:1") && refused.stderr.contains("--store-optional"), "\(refused.stderr)")
        #expect(optional.status == 0, "stderr: \(optional.stderr)")
        #expect(Self.items(optional) == ["news/a"])
        #expect(optional.stderr.contains("warning") && optional.stderr.contains("127.0.0.1:1"))
        for text in [refused.stdout, refused.stderr, optional.stdout, optional.stderr] { #expect(!text.contains("Sup3r-secret")) }
    }

    @Test("PostgreSQL restarted between two runs and in the middle of a watch: each item printed once, nothing lost")
    func restarts() async throws {
        let cluster = try await TestPostgresCluster.start()
        let sandbox = try Sandbox(
            manifest: """
                {"version": 1, "defaults": {"refreshSeconds": 1},
                 "sources": [{"id": "news", "provider": "files", "options": {"paths": ["data/news.ndjson"]}}]}
                """,
            files: ["data/news.ndjson": SinkSandbox.news(["a"])])
        var environment = ProcessInfo.processInfo.environment
        environment["AGGREGATE_STORE"] = cluster.url
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        let first = try await Aggregate.run(["-f", "ndjson", "--new", "--manifest", sandbox.manifestPath], environment: environment)
        try await cluster.restart()
        try SinkSandbox.write(["a", "b"], in: sandbox)
        let second = try await Aggregate.run(["-f", "ndjson", "--new", "--manifest", sandbox.manifestPath], environment: environment)

        let watch = try LiveProcess.start(
            Aggregate.binary, ["watch", "-f", "ndjson", "--stop-after", "120", "--manifest", sandbox.manifestPath],
            environment: environment)
        let sawB = await watch.waitFor { stdout, _ in stdout.contains(#""id":"b""#) }
        try await cluster.restart()
        try SinkSandbox.write(["a", "b", "c"], in: sandbox)
        let sawC = await watch.waitFor { stdout, _ in stdout.contains(#""id":"c""#) }
        try SinkSandbox.write(["a", "b", "c", "d"], in: sandbox)
        let sawD = await watch.waitFor { stdout, _ in stdout.contains(#""id":"d""#) }
        watch.signal(SIGTERM)
        let watched = await watch.finish()
        let after = try await Aggregate.run(["-f", "ndjson", "--new", "--manifest", sandbox.manifestPath], environment: environment)
        await cluster.stop()

        #expect(first.status == 0 && Self.items(first) == ["news/a"], "stderr: \(first.stderr)")
        #expect(second.status == 0 && Self.items(second) == ["news/b"], "after a restart, only the new item: \(second.stderr)")
        #expect(sawB && sawC && sawD, "stderr: \(watched.stderr)")
        let lines = Self.items(CommandResult(status: watched.status, stdout: watched.stdout, stderr: watched.stderr))
        for id in ["news/c", "news/d"] { #expect(lines.filter { $0 == id }.count == 1, "\(id) once: \(lines)") }
        #expect(after.status == 0 && Self.items(after).isEmpty, "the watch's history reached the store after the restart")
    }

    @Test("store migrate creates the schema and store info shows the URL without its password")
    func migrateAndInfo() async throws {
        let database = try await TestPostgres.makeDatabase()
        var components = try #require(URLComponents(string: database))
        components.password = "Pa55-word"  // trust authentication ignores it; it must still never be printed
        let environment = ["AGGREGATE_STORE": components.string!]
        let migrate = try await Aggregate.run(["store", "migrate"], environment: environment)
        let info = try await Aggregate.run(["store", "info"], environment: environment)
        let local = try await Aggregate.run(["store", "info"], removing: ["AGGREGATE_STORE"])

        #expect(migrate.status == 0, "stderr: \(migrate.stderr)")
        #expect(info.status == 0)
        #expect(info.stdout.contains("store: PostgreSQL") && info.stdout.contains("schema: v1, v2-rate-limit"))
        #expect(info.stdout.contains("postgres://postgres:***@127.0.0.1"))
        for text in [migrate.stdout, migrate.stderr, info.stdout, info.stderr] { #expect(!text.contains("Pa55-word")) }
        #expect(local.stdout.contains("store: SQLite"))
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

    @Test("cache stats, history clear and sinks status work on the shared store")
    func maintenance() async throws {
        let server = try await FixtureServer.start()
        server.route("/feeds/alpha.xml", try Self.feed())
        server.route("/feeds/beta.xml", try Self.feed())
        server.route("/hook", FixtureResponse(status: 204, body: Data()))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let sink = #"{"id": "hook", "type": "webhook", "url": "\#(receiver.url)", "secret": "${HOOK_SECRET}", "sources": ["alpha"]}"#
        let shared = try await Shared(server: server, sinks: sink)
        let environment = ["AGGREGATE_STORE": shared.store]

        let first = try await shared.run(["-f", "ndjson", "--new"])
        let stats = try await Aggregate.run(["cache", "stats"], environment: environment)
        let cleared = try await Aggregate.run(["history", "clear", "--source", "alpha"], environment: environment)
        let again = try await shared.run(["-f", "ndjson", "--new"])
        let sinks = try await Aggregate.run(["sinks", "status"], environment: environment)
        await server.stop()

        #expect(first.status == 0 && Self.items(first).count == 8, "stderr: \(first.stderr)")
        #expect(stats.status == 0 && stats.stdout.contains("alpha") && stats.stdout.contains("beta"), "\(stats.stdout)\(stats.stderr)")
        #expect(cleared.status == 0 && cleared.stdout.contains("4"), "\(cleared.stdout)\(cleared.stderr)")
        #expect(Set(Self.items(again)) == Set(Self.items(first).filter { $0.hasPrefix("alpha/") }), "only alpha's history was cleared")
        #expect(sinks.status == 0 && sinks.stdout.contains("hook"), "\(sinks.stdout)\(sinks.stderr)")
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

    @Test("TLS: sslmode=require connects to a server that offers TLS and is refused by one that does not")
    func tls() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-pg-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = directory.appendingPathComponent("server.key").path, certificate = directory.appendingPathComponent("server.crt").path
        let made = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=localhost"],
            environment: ProcessInfo.processInfo.environment)
        try #require(made.status == 0, "\(made.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        if getuid() == 0 {  // the server runs as postgres and must own its key
            for path in [key, certificate] { try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: path) }
        }
        let cluster = try await TestPostgresCluster.start(options: "-c ssl=on -c ssl_cert_file=\(certificate) -c ssl_key_file=\(key)")
        let requiring = cluster.url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=require")
        let encrypted = try await Aggregate.run(["store", "migrate"], environment: ["AGGREGATE_STORE": requiring])
        let plainServer = try #require(TestPostgres.serverURL).replacingOccurrences(of: "sslmode=disable", with: "sslmode=require")
        let refused = try await Aggregate.run(["store", "info"], environment: ["AGGREGATE_STORE": plainServer])
        await cluster.stop()
        try? FileManager.default.removeItem(at: directory)

        #expect(encrypted.status == 0, "stderr: \(encrypted.stderr)")
        #expect(encrypted.stdout.contains("sslmode: require"))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("TLS"), "\(refused.stderr)")
    }
}
