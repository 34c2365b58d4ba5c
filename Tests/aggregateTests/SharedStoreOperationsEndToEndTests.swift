import Foundation
import ProviderTesting
import Synchronization
import Testing

/// Running a shared PostgreSQL store: faults (unreachable, restarted), TLS, the schema and the maintenance
/// commands, with the built binary.
@Suite("aggregate on a shared PostgreSQL store: faults, TLS, store and maintenance commands (end to end)", .serialized,
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct SharedStoreOperationsEndToEndTests {
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
        #expect(SharedStoreEndToEndTests.items(optional) == ["news/a"])
        #expect(optional.stderr.contains("warning") && optional.stderr.contains("127.0.0.1:1"))
        for text in [refused.stdout, refused.stderr, optional.stdout, optional.stderr] { #expect(!text.contains("Sup3r-secret")) }
    }

    /// One files source read every second, its file holding item "a": what a watch test adds items to.
    static func watchedNews() throws -> Sandbox {
        try Sandbox(
            manifest: """
                {"version": 1, "defaults": {"refreshSeconds": 1},
                 "sources": [{"id": "news", "provider": "files", "options": {"paths": ["data/news.ndjson"]}}]}
                """,
            files: ["data/news.ndjson": SinkSandbox.news(["a"])])
    }

    @Test("PostgreSQL restarted between two runs and in the middle of a watch: each item printed once, nothing lost")
    func restarts() async throws {
        let cluster = try await TestPostgresCluster.start()
        let sandbox = try Self.watchedNews()
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

        #expect(first.status == 0 && SharedStoreEndToEndTests.items(first) == ["news/a"], "stderr: \(first.stderr)")
        #expect(second.status == 0 && SharedStoreEndToEndTests.items(second) == ["news/b"], "after a restart, only the new item: \(second.stderr)")
        #expect(sawB && sawC && sawD, "stderr: \(watched.stderr)")
        let lines = SharedStoreEndToEndTests.items(CommandResult(status: watched.status, stdout: watched.stdout, stderr: watched.stderr))
        for id in ["news/c", "news/d"] { #expect(lines.filter { $0 == id }.count == 1, "\(id) once: \(lines)") }
        #expect(after.status == 0 && SharedStoreEndToEndTests.items(after).isEmpty, "the watch's history reached the store after the restart")
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

    @Test("cache stats, history clear and sinks status work on the shared store")
    func maintenance() async throws {
        let server = try await FixtureServer.start()
        server.route("/feeds/alpha.xml", try SharedStoreEndToEndTests.feed())
        server.route("/feeds/beta.xml", try SharedStoreEndToEndTests.feed())
        server.route("/hook", FixtureResponse(status: 204, body: Data()))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let sink = #"{"id": "hook", "type": "webhook", "url": "\#(receiver.url)", "secret": "${HOOK_SECRET}", "sources": ["alpha"]}"#
        let shared = try await SharedStoreEndToEndTests.Shared(server: server, sinks: sink)
        let environment = ["AGGREGATE_STORE": shared.store]

        let first = try await shared.run(["-f", "ndjson", "--new"])
        let stats = try await Aggregate.run(["cache", "stats"], environment: environment)
        let cleared = try await Aggregate.run(["history", "clear", "--source", "alpha"], environment: environment)
        let again = try await shared.run(["-f", "ndjson", "--new"])
        let sinks = try await Aggregate.run(["sinks", "status"], environment: environment)
        await server.stop()

        #expect(first.status == 0 && SharedStoreEndToEndTests.items(first).count == 8, "stderr: \(first.stderr)")
        #expect(stats.status == 0 && stats.stdout.contains("alpha") && stats.stdout.contains("beta"), "\(stats.stdout)\(stats.stderr)")
        #expect(cleared.status == 0 && cleared.stdout.contains("4"), "\(cleared.stdout)\(cleared.stderr)")
        #expect(Set(SharedStoreEndToEndTests.items(again)) == Set(SharedStoreEndToEndTests.items(first).filter { $0.hasPrefix("alpha/") }), "only alpha's history was cleared")
        #expect(sinks.status == 0 && sinks.stdout.contains("hook"), "\(sinks.stdout)\(sinks.stderr)")
    }

    @Test("with the store named only by the manifest's store.url, cache stats and sinks status read that store")
    func maintenanceFollowsManifest() async throws {
        let store = try await TestPostgres.makeDatabase()
        let sandbox = try Sandbox(
            manifest: """
                {"version": 1, "store": {"url": "${SHARED_DB}"},
                 "sources": [{"id": "news", "provider": "files", "options": {"paths": ["data/news.ndjson"]}}]}
                """,
            files: ["data/news.ndjson": SinkSandbox.news(["a", "b"])])
        let environment = ["SHARED_DB": store]
        let run = try await Aggregate.run(["-f", "ndjson", "--new", "--manifest", sandbox.manifestPath], environment: environment)
        let stats = try await Aggregate.run(["cache", "stats", "--manifest", sandbox.manifestPath], environment: environment)
        let sinks = try await Aggregate.run(["sinks", "status", "--manifest", sandbox.manifestPath], environment: environment)
        let elsewhere = try await Aggregate.run(["cache", "stats"], environment: environment)

        #expect(run.status == 0 && SharedStoreEndToEndTests.items(run) == ["news/a", "news/b"], "\(run.stderr)")
        #expect(stats.status == 0 && stats.stdout.contains("news"), "the shared store's history: \(stats.stdout)\(stats.stderr)")
        #expect(sinks.status == 0 && sinks.stdout.contains("127.0.0.1"), "names the shared store: \(sinks.stdout)\(sinks.stderr)")
        #expect(!elsewhere.stdout.contains("news"), "without the manifest, the data directory's own store: \(elsewhere.stdout)")
    }

    @Test("TLS: sslmode=require connects to a server that offers TLS and is refused by one that does not")
    func tls() async throws {
        let directory = ScratchDirectory.path("aggregate-pg-tls")
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

/// Two `watch -f ndjson` processes (two machines) on one shared store: a new item is announced by one of them.
@Suite("aggregate watch on a shared PostgreSQL store (end to end)", .serialized,
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct SharedStoreWatchEndToEndTests {
    @Test("two watches sharing a store: each item that appears while they run is printed by exactly one of them")
    func watchesAnnounceOnce() async throws {
        let store = try await TestPostgres.makeDatabase()
        let sandbox = try SharedStoreOperationsEndToEndTests.watchedNews()
        // The first run claims what is there; the watches then only have news to announce.
        let seeded = try await Aggregate.run(
            ["-f", "ndjson", "--new", "--manifest", sandbox.manifestPath], environment: ["AGGREGATE_STORE": store])
        try #require(seeded.status == 0, "\(seeded.stderr)")
        let watches = try (0..<2).map { _ in
            var environment = ProcessInfo.processInfo.environment
            environment["AGGREGATE_STORE"] = store
            environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
            return try LiveProcess.start(
                Aggregate.binary, ["watch", "-f", "ndjson", "--new-only", "-v", "--stop-after", "120", "--manifest", sandbox.manifestPath],
                environment: environment)
        }
        var ids = ["a"]
        for next in ["b", "c", "d"] {
            ids.append(next)
            var before: [Int] = []
            for watch in watches { before.append(await Self.finishes(of: watch)) }
            try SinkSandbox.write(ids, in: sandbox)
            let marker = #""id":"\#(next)""#
            // Each watch reads the file every second; one of them prints the item.
            let printed = await Self.eitherPrints(marker, watches)
            #expect(printed, "\(next) was announced by one of the watches")
            // Both have had a whole cycle past the change, so a second announcement would be printed by now: two
            // more finishes each (`--verbose` writes one line per finish; the first may have begun before the change).
            for (watch, seen) in zip(watches, before) {
                _ = await watch.waitFor { _, stderr in Self.finishCount(stderr) >= seen + 2 }
            }
        }
        for watch in watches { watch.signal(SIGTERM) }
        var lines: [String] = []
        for watch in watches {
            let result = await watch.finish()
            lines += SharedStoreEndToEndTests.items(CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr))
        }
        for id in ["news/b", "news/c", "news/d"] {
            #expect(lines.filter { $0 == id }.count == 1, "\(id) once across both watches: \(lines)")
        }
        #expect(!lines.contains("news/a"), "claimed before the watches started")
    }

    /// Whether one of `watches` printed `marker`: the first to print it ends the wait and calls off the others'
    /// waits; false when all their output ended without it (each watch stops after 120 s).
    private static func eitherPrints(_ marker: String, _ watches: [LiveProcess]) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            for watch in watches {
                group.addTask { await watch.waitFor { stdout, _ in stdout.contains(marker) } }
            }
            for await printed in group where printed {
                group.cancelAll()
                return true
            }
            return false
        }
    }

    /// The finishes of the source `news` a `--verbose` watch has reported so far.
    private static func finishes(of watch: LiveProcess) async -> Int {
        let count = Mutex(0)
        _ = await watch.waitFor { _, stderr in
            count.withLock { $0 = finishCount(stderr) }
            return true
        }
        return count.withLock { $0 }
    }

    private static func finishCount(_ stderr: String) -> Int {
        stderr.components(separatedBy: "aggregate: news: ok,").count - 1
    }
}
