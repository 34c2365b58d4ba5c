import Foundation
import ProviderTesting
import Testing

/// What the store keeps per source belongs to the source's identity (its id and what it fetches), never to
/// the id alone: two manifests sharing one `AGGREGATE_HOME`, or one manifest whose options changed, never see
/// each other's last good copy or history.
@Suite("Stored data belongs to a source identity, end to end", .serialized)
struct SourceIdentityEndToEndTests {
    static let key = "identityE2Ekey0a1b2c3d4e5f60718293a4b5c6"

    /// A manifest with one OpenWeather source `weather` asking for `cities`, in a directory of its own.
    struct WeatherManifest {
        let root: URL

        init(cities: [String], baseURL: URL) throws {
            root = ScratchDirectory.path("aggregate-identity")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try write(cities: cities, baseURL: baseURL)
        }

        func write(cities: [String], baseURL: URL) throws {
            let names = cities.map { "\"\($0)\"" }.joined(separator: ", ")
            let manifest = """
                { "version": 1, "sources": [ { "id": "weather", "provider": "openweather", "timeoutSeconds": 30,
                    "options": { "cities": [\(names)], "apiKey": "${OPENWEATHER_API_KEY}",
                                 "baseURL": "\(baseURL.absoluteString)", "maxRetries": 0 } } ] }
                """
            try manifest.write(to: root.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        }

        func run(home: URL) async throws -> CommandResult {
            try await Aggregate.run(
                ["--format", "json", "--manifest", root.appendingPathComponent("manifest.json").path],
                environment: ["OPENWEATHER_API_KEY": SourceIdentityEndToEndTests.key, "AGGREGATE_HOME": home.path])
        }
    }

    /// Each city answers once with the recorded body (always revalidated), then 503 for good.
    private func serverAnsweringOnce(_ cities: [String]) async throws -> FixtureServer {
        let server = try await FixtureServer.start()
        var body = try StoreEndToEndTests.weatherBody()
        body.headers.append(("Cache-Control", "max-age=0"))
        for city in cities {
            server.route("/data/2.5/weather", query: ["q": city], body, .json(#"{"message":"down"}"#, status: 503))
        }
        return server
    }

    private func temporaryHome() -> URL {
        ScratchDirectory.path("aggregate-identity-home")
    }

    @Test("two manifests share one AGGREGATE_HOME with a source 'weather' each: a failing one never shows the other's items")
    func twoManifests() async throws {
        let server = try await serverAnsweringOnce(["Seoul", "Tokyo"])
        let home = temporaryHome()
        let seoul = try WeatherManifest(cities: ["Seoul"], baseURL: server.baseURL)
        let tokyo = try WeatherManifest(cities: ["Tokyo"], baseURL: server.baseURL)

        #expect(try await seoul.run(home: home).status == 0)
        let seoulAgain = try await seoul.run(home: home)  // Seoul now answers 503: its own copy, stale
        let seoulSource = try #require(try seoulAgain.sources().first)
        #expect(seoulSource["status"] as? String == "stale")
        #expect(try seoulAgain.items().map { $0["id"] as? String } == ["Seoul"])

        #expect(try await tokyo.run(home: home).status == 0)
        let tokyoAgain = try await tokyo.run(home: home)
        let tokyoSource = try #require(try tokyoAgain.sources().first)
        #expect(tokyoSource["status"] as? String == "stale")
        #expect(try tokyoAgain.items().map { $0["id"] as? String } == ["Tokyo"], "its own copy, never Seoul's")
        // Tokyo's copy came last; Seoul failing again still gets its own.
        let seoulThird = try await seoul.run(home: home)
        #expect(try seoulThird.items().map { $0["id"] as? String } == ["Seoul"], "its own copy, never Tokyo's")
        await server.stop()
    }

    @Test("a source whose copy was saved by another manifest's same-id source fails as error, with no items")
    func noCopyOfItsOwn() async throws {
        let server = try await serverAnsweringOnce(["Seoul"])
        server.route("/data/2.5/weather", query: ["q": "Osaka"], .json(#"{"message":"down"}"#, status: 503))
        let home = temporaryHome()
        let seoul = try WeatherManifest(cities: ["Seoul"], baseURL: server.baseURL)
        let osaka = try WeatherManifest(cities: ["Osaka"], baseURL: server.baseURL)
        #expect(try await seoul.run(home: home).status == 0)

        let failing = try await osaka.run(home: home)
        #expect(failing.status == 1)
        let source = try #require(try failing.sources().first)
        #expect(source["status"] as? String == "error")
        #expect(source["itemCount"] as? Int == 0)
        #expect(try failing.items().isEmpty, "Seoul's items must never stand in for Osaka's")
        await server.stop()
    }

    @Test("options changed between runs (another city): the old copy is not served for the new options")
    func optionsChanged() async throws {
        let server = try await serverAnsweringOnce(["Seoul"])
        server.route("/data/2.5/weather", query: ["q": "Busan"], .json(#"{"message":"down"}"#, status: 503))
        let home = temporaryHome()
        let manifest = try WeatherManifest(cities: ["Seoul"], baseURL: server.baseURL)
        #expect(try await manifest.run(home: home).status == 0)

        try manifest.write(cities: ["Busan"], baseURL: server.baseURL)
        let changed = try await manifest.run(home: home)
        let source = try #require(try changed.sources().first)
        #expect(source["status"] as? String == "error")
        #expect(try changed.items().isEmpty)
        await server.stop()
    }

    @Test("--new history: a same-id source of another manifest starts its own; tuning options and timeouts keep it")
    func history() async throws {
        let home = temporaryHome()
        func manifest(_ extra: String) -> String {
            #"{"version": 1, "sources": [{"id": "notes", "provider": "files" \#(extra), "options": {"paths": ["data/a.ndjson"]}}]}"#
        }
        let lines = #"{"id": "n1", "title": "First"}"# + "\n" + #"{"id": "n2", "title": "Second"}"# + "\n"
        let first = try Sandbox(manifest: manifest(""), files: ["data/a.ndjson": lines])
        let second = try Sandbox(manifest: manifest(""), files: ["data/a.ndjson": lines])
        func run(_ sandbox: Sandbox) async throws -> CommandResult {
            try await Aggregate.run(["--new", "-f", "ndjson", "--manifest", sandbox.manifestPath],
                                    environment: ["AGGREGATE_HOME": home.path])
        }

        #expect(try await run(first).stdout.split(separator: "\n").count == 2)
        #expect(try await run(first).stdout.isEmpty, "nothing new for the same source")
        // Another manifest's `notes` reads other files (relative to its own directory): a history of its own.
        let other = try await run(second)
        #expect(other.stdout.split(separator: "\n").count == 2)
        #expect(other.stderr.contains("first run with --new"))

        // The source's timeout is no part of what it fetches: its history stays.
        try Data(manifest(#", "timeoutSeconds": 7"#).utf8).write(to: first.root.appendingPathComponent("manifest.json"))
        #expect(try await run(first).stdout.isEmpty)
        // Other paths are another source: everything is new to it.
        try Data(lines.utf8).write(to: first.root.appendingPathComponent("data/b.ndjson"))
        try Data(manifest("").replacingOccurrences(of: "a.ndjson", with: "b.ndjson").utf8)
            .write(to: first.root.appendingPathComponent("manifest.json"))
        #expect(try await run(first).stdout.split(separator: "\n").count == 2)
    }
}
