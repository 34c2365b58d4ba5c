import Foundation
import ProviderTesting
import Testing

/// The C example plugin (Examples/plugins/c-hello, built from source by its script) declared in a manifest and run
/// by the built `aggregate`, its HTTP going to the loopback fixture server through the host.
@Suite("aggregate with a WebAssembly plugin, end to end")
struct PluginEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// wasi-libc (.ci/run installs it); under CI=true its absence fails the tests instead of skipping them.
    static let runs = FileManager.default.fileExists(atPath: "/usr/lib/wasm32-wasi/libc.a")
        || ProcessInfo.processInfo.environment["CI"] == "true"

    /// A manifest directory with the example built into `plugins/hello.wasm`.
    static func sandbox(allowedHost: String, options: String) async throws -> URL {
        let folder = try ScratchDirectory.Folder("plugin-e2e")
        let module = folder.url.appendingPathComponent("plugins/hello.wasm")
        try FileManager.default.createDirectory(at: module.deletingLastPathComponent(), withIntermediateDirectories: true)
        let build = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), [root.appendingPathComponent("Examples/plugins/c-hello/build.sh").path, module.path],
            environment: ProcessInfo.processInfo.environment)
        try #require(build.status == 0, "build.sh failed: \(build.stderr)")
        return try folder.write("manifest.json", """
            {"version": 1,
             "plugins": [{"name": "hello", "module": "plugins/hello.wasm", "allowedHosts": ["\(allowedHost)"]}],
             "sources": [{"id": "greetings", "provider": "hello", "options": \(options)}]}
            """)
    }

    @Test("a plugin source's items reach the output, its request served by the fixture server",
          .enabled(if: runs, "needs wasi-libc (apt install wasi-libc)"))
    func run() async throws {
        let server = try await FixtureServer.start()
        server.route("/greeting", try .recorded("plugin-greeting.txt", in: .module, contentType: "text/plain"))
        let manifest = try await Self.sandbox(
            allowedHost: "127.0.0.1", options: #"{"names": ["ada", "grace"], "url": "\#(server.baseURL.absoluteString)/greeting"}"#)
        let result = try await Aggregate.run(["--manifest", manifest.path, "--format", "ndjson"])
        let providers = try await Aggregate.run(["providers", "--manifest", manifest.path])
        await server.stop()

        #expect(result.status == 0, "\(result.stderr)")
        let titles = result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["title"] as? String
        }
        #expect(titles == ["Hello, ada", "Hello, grace"])
        #expect(result.stdout.contains("Hi there"))
        #expect(providers.status == 0)
        #expect(providers.stdout.contains("hello — WebAssembly plugin hello.wasm (HTTP to 127.0.0.1)"))
        #expect(providers.stdout.contains("feed — "), "the built-in providers are still listed")
    }

    @Test("a plugin reaching for a host it was not allowed fails its source, exit 1, naming plugin and host",
          .enabled(if: runs, "needs wasi-libc (apt install wasi-libc)"))
    func refusedHost() async throws {
        let server = try await FixtureServer.start()
        server.fallback(.json("{}"))
        let manifest = try await Self.sandbox(
            allowedHost: "api.example.com", options: #"{"names": ["ada"], "url": "\#(server.baseURL.absoluteString)/greeting"}"#)
        let result = try await Aggregate.run(["--manifest", manifest.path, "--format", "json"])
        let requests = server.requestCount
        await server.stop()
        #expect(result.status == 1)
        #expect(result.stdout.contains("plugin 'hello': request to '127.0.0.1' refused: not in the plugin's allowedHosts"))
        #expect(requests == 0)
    }

    @Test("the plugin's own option check is a manifest problem: exit 78 with the option's path",
          .enabled(if: runs, "needs wasi-libc (apt install wasi-libc)"))
    func optionProblem() async throws {
        let manifest = try await Self.sandbox(allowedHost: "api.example.com", options: "{}")
        let result = try await Aggregate.run(["validate", "--manifest", manifest.path])
        #expect(result.status == 78)
        #expect(result.stderr.contains("sources[0].options.names: required: the names to greet"), "\(result.stderr)")
    }
}
