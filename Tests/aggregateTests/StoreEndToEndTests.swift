import Foundation
import ProviderTesting
import Testing

/// The persistent store seen from the command line: several runs of the built binary sharing one
/// `AGGREGATE_HOME`, against the loopback fixture server (which counts requests).
@Suite("aggregate with the persistent store, end to end", .serialized)
struct StoreEndToEndTests {
    static let key = "storeE2Ekey0a1b2c3d4e5f60718293a4b5c6d7e8"

    static func weatherBody() throws -> FixtureResponse {
        guard let url = Bundle.module.url(
            forResource: "Fixtures/success_zocca_docs_example_standard_units_pyopenweathermap.json", withExtension: nil)
        else { throw CocoaError(.fileNoSuchFile) }
        return try .file(url)
    }

    /// A project directory with a two-city OpenWeather source, and an empty data directory for the store.
    struct Project {
        let root: URL
        let home: URL
        var manifest: String { root.appendingPathComponent("manifest.json").path }

        init(baseURL: URL, cacheTTLSeconds: Int = 300) throws {
            root = ScratchDirectory.path("aggregate-store-e2e")
            home = root.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let manifest = """
                { "version": 1, "defaults": { "cacheTTLSeconds": \(cacheTTLSeconds) },
                  "sources": [ { "id": "weather", "provider": "openweather", "timeoutSeconds": 30,
                    "options": { "cities": ["Seoul", "Busan"], "apiKey": "${OPENWEATHER_API_KEY}",
                                 "baseURL": "\(baseURL.absoluteString)", "maxRetries": 0 } } ] }
                """
            try manifest.write(to: root.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        }

        func run(_ arguments: [String]) async throws -> CommandResult {
            try await Aggregate.run(arguments + ["--manifest", manifest],
                                    environment: ["OPENWEATHER_API_KEY": StoreEndToEndTests.key, "AGGREGATE_HOME": home.path])
        }

        func store(_ arguments: [String]) async throws -> CommandResult {
            try await Aggregate.run(arguments, environment: ["AGGREGATE_HOME": home.path])
        }

        /// The database file and its WAL, as bytes.
        func databaseBytes() throws -> Data {
            var data = Data()
            for name in ["aggregate.sqlite", "aggregate.sqlite-wal"] {
                let url = home.appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: url.path) { data.append(try Data(contentsOf: url)) }
            }
            return data
        }
    }

    @Test("a warm rerun inside the TTL makes zero requests and says cache hit; the key never reaches the database")
    func warmRerun() async throws {
        let server = try await FixtureServer.start()
        server.route("/data/2.5/weather", try Self.weatherBody())
        let project = try Project(baseURL: server.baseURL)

        let cold = try await project.run(["--format", "json"])
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(server.requestCount == 2)
        #expect(try cold.sources().first?["cache"] as? String == "miss")

        let warm = try await project.run(["--format", "json"])
        #expect(warm.status == 0)
        #expect(server.requestCount == 2, "the warm run made no request")
        #expect(try warm.sources().first?["cache"] as? String == "hit")
        #expect(try warm.items().map { $0["title"] as? String } == ["Zocca", "Zocca"])

        let bytes = try project.databaseBytes()
        #expect(bytes.range(of: Data("Zocca".utf8)) != nil, "the check reads the real file")
        #expect(bytes.range(of: Data(Self.key.utf8)) == nil, "the API key is not in the database or its WAL")

        let stats = try await project.store(["cache", "stats"])
        #expect(stats.status == 0)
        #expect(stats.stdout.contains("weather"))
        let cleared = try await project.store(["cache", "clear", "--source", "weather"])
        #expect(cleared.stdout.contains("removed 2 stored responses"))
        _ = try await project.run(["--format", "json"])
        #expect(server.requestCount == 4, "after clearing, the run asks again")
        await server.stop()
    }

    @Test("a failing service is served from the last good copy: stale with its age, exit 1 unless --allow-stale")
    func staleIfError() async throws {
        let server = try await FixtureServer.start()
        let fresh = try Self.weatherBody()
        var revalidateAlways = fresh
        revalidateAlways.headers.append(("Cache-Control", "max-age=0"))
        for city in ["Seoul", "Busan"] {
            server.route("/data/2.5/weather", query: ["q": city], revalidateAlways, .json(#"{"message":"down"}"#, status: 503))
        }
        let project = try Project(baseURL: server.baseURL)
        let good = try await project.run(["--format", "json"])
        #expect(good.status == 0)

        let failing = try await project.run(["--format", "json"])
        #expect(failing.status == 1)
        let source = try #require(try failing.sources().first)
        #expect(source["status"] as? String == "stale")
        #expect(source["cache"] as? String == "stale")
        #expect(source["itemCount"] as? Int == 2)
        #expect((source["message"] as? String)?.contains("last good copy") == true)
        #expect((source["message"] as? String)?.contains(" s old") == true)
        #expect(failing.stderr.contains("last good copy"))

        let allowed = try await project.run(["--format", "json", "--allow-stale"])
        #expect(allowed.status == 0)
        #expect(try allowed.items().count == 2)
        await server.stop()
    }

    @Test("--offline serves the cache without any request, and reports a source with nothing cached as skipped")
    func offline() async throws {
        let server = try await FixtureServer.start()
        server.route("/data/2.5/weather", try Self.weatherBody())
        let project = try Project(baseURL: server.baseURL)
        _ = try await project.run(["--format", "json"])
        let requests = server.requestCount
        await server.stop()

        let offline = try await project.run(["--format", "json", "--offline"])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(try offline.items().count == 2)
        #expect(server.requestCount == requests)

        let empty = try Project(baseURL: server.baseURL)
        let nothing = try await empty.run(["--format", "json", "--offline"])
        #expect(nothing.status == 1)
        let source = try #require(try nothing.sources().first)
        #expect(source["status"] as? String == "skipped")
        #expect(((source["error"] as? [String: Any])?["message"] as? String)?.contains("not cached") == true)
    }

    @Test("--offline sends nothing for a source whose cache is off: it is reported skipped, saying why")
    func offlineWithoutCache() async throws {
        let server = try await FixtureServer.start()
        server.route("/data/2.5/weather", try Self.weatherBody())
        let project = try Project(baseURL: server.baseURL, cacheTTLSeconds: 0)
        let offline = try await project.run(["--format", "json", "--offline"])
        await server.stop()
        #expect(server.requestCount == 0, "--offline made \(server.requestCount) requests")
        #expect(offline.status == 1)
        let source = try #require(try offline.sources().first)
        #expect(source["status"] as? String == "skipped", "\(source)")
        let message = (source["error"] as? [String: Any])?["message"] as? String
        #expect(message?.contains("--offline allows no network, and this source keeps no cache") == true, "\(source)")
    }

    @Test("--new across two runs prints everything first (and says so), then only what is new; history clear resets")
    func newItems() async throws {
        let sandbox = try Sandbox(
            manifest: #"{"version": 1, "sources": [{"id": "notes", "provider": "files", "options": {"paths": ["data/a.ndjson"]}}]}"#,
            files: ["data/a.ndjson": #"{"id": "n1", "title": "First"}"# + "\n" + #"{"id": "n2", "title": "Second"}"# + "\n"])
        let home = sandbox.root.appendingPathComponent("home").path
        func run(_ arguments: [String]) async throws -> CommandResult {
            try await Aggregate.run(arguments + ["--manifest", sandbox.manifestPath], environment: ["AGGREGATE_HOME": home])
        }

        let first = try await run(["--new", "-f", "ndjson"])
        #expect(first.status == 0)
        #expect(first.stdout.split(separator: "\n").count == 2)
        #expect(first.stderr.contains("first run with --new"))

        try Data((#"{"id": "n1", "title": "First"}"# + "\n" + #"{"id": "n2", "title": "Second"}"# + "\n"
            + #"{"id": "n3", "title": "Third"}"# + "\n").utf8).write(to: sandbox.root.appendingPathComponent("data/a.ndjson"))
        let second = try await run(["--new", "-f", "ndjson"])
        #expect(second.status == 0)
        let lines = second.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""id":"n3""#) == true)
        #expect(!second.stderr.contains("first run"))

        let cleared = try await Aggregate.run(["history", "clear", "--source", "notes"], environment: ["AGGREGATE_HOME": home])
        #expect(cleared.stdout.contains("forgot 3 seen items"))
        let again = try await run(["--new", "-f", "ndjson"])
        #expect(again.stdout.split(separator: "\n").count == 3)
    }

    @Test("cache and history refuse a --source that names nothing, and accept one the store or the manifest knows")
    func unknownSource() async throws {
        let sandbox = try Sandbox(
            manifest: #"{"version": 1, "sources": [{"id": "notes", "provider": "files", "options": {"paths": ["data/a.ndjson"]}}, {"id": "later", "provider": "files", "enabled": false, "options": {"paths": ["data/a.ndjson"]}}]}"#,
            files: ["data/a.ndjson": #"{"id": "n1", "title": "First"}"# + "\n"])
        let home = sandbox.root.appendingPathComponent("home").path
        let elsewhere = ["--manifest", sandbox.root.appendingPathComponent("none.json").path]
        func aggregate(_ arguments: [String]) async throws -> CommandResult {
            try await Aggregate.run(arguments, environment: ["AGGREGATE_HOME": home])
        }
        #expect(try await aggregate(["--new", "-f", "ndjson", "--manifest", sandbox.manifestPath]).status == 0)

        for command in [["history", "clear"], ["cache", "clear"], ["cache", "stats"]] {
            let typo = try await aggregate(command + ["--source", "ntoes"] + elsewhere)
            #expect(typo.status == 64, "\(command): \(typo.stderr)")
            #expect(typo.stderr.contains("unknown source 'ntoes' (did you mean 'notes'?)"), "\(typo.stderr)")
            #expect(typo.stderr.contains("the store holds data of: notes"), "\(typo.stderr)")
            #expect(typo.stdout.isEmpty)
        }
        // Known to the store though no manifest is there: cleared.
        let stored = try await aggregate(["history", "clear", "--source", "notes"] + elsewhere)
        #expect(stored.status == 0)
        #expect(stored.stdout.contains("forgot 1 seen item of source notes"))
        // Defined by the manifest, nothing stored yet: nothing to clear, and that is no error.
        let defined = try await aggregate(["history", "clear", "--source", "later", "--manifest", sandbox.manifestPath])
        #expect(defined.status == 0, "\(defined.stderr)")
        #expect(defined.stdout.contains("forgot 0 seen items of source later"))
        let undefined = try await aggregate(["history", "clear", "--source", "later"] + elsewhere)
        #expect(undefined.status == 64)
    }

    @Test("two runs writing the same store at once both succeed and record everything")
    func twoProcesses() async throws {
        let lines = (0..<1000).map { #"{"id": "n\#($0)", "title": "Item \#($0)"}"# }.joined(separator: "\n") + "\n"
        let sandbox = try Sandbox(
            manifest: #"{"version": 1, "sources": [{"id": "notes", "provider": "files", "options": {"paths": ["data/a.ndjson"]}}]}"#,
            files: ["data/a.ndjson": lines])
        let home = sandbox.root.appendingPathComponent("home").path
        let arguments = ["-f", "ndjson", "--manifest", sandbox.manifestPath]
        async let one = Aggregate.run(arguments, environment: ["AGGREGATE_HOME": home])
        async let two = Aggregate.run(arguments, environment: ["AGGREGATE_HOME": home])
        let (first, second) = try await (one, two)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!(first.stderr + second.stderr).contains("warning"), "neither run found the store locked or damaged")

        let after = try await Aggregate.run(["--new"] + arguments, environment: ["AGGREGATE_HOME": home])
        #expect(after.status == 0)
        #expect(after.stdout.isEmpty, "both runs' history is there: nothing is new")
    }

    @Test("a corrupt database is moved aside with a warning and the run still succeeds")
    func corruptDatabase() async throws {
        let sandbox = try Sandbox(
            manifest: #"{"version": 1, "sources": [{"id": "notes", "provider": "files", "options": {"paths": ["data/a.ndjson"]}}]}"#,
            files: ["data/a.ndjson": #"{"id": "n1", "title": "First"}"# + "\n"])
        let home = sandbox.root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 4096).write(to: home.appendingPathComponent("aggregate.sqlite"))

        let result = try await Aggregate.run(["-f", "json", "--manifest", sandbox.manifestPath],
                                             environment: ["AGGREGATE_HOME": home.path])
        #expect(result.status == 0)
        #expect(try result.items().count == 1)
        #expect(result.stderr.contains("warning"))
        #expect(result.stderr.contains("moved it to"))
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path)
        #expect(names.contains { $0.hasPrefix("aggregate.sqlite.corrupt-") })
    }
}
