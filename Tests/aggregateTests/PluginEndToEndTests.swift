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

    /// Builds the example at `module`, with extra C flags.
    static func build(_ module: URL, cflags: String = "") async throws {
        try FileManager.default.createDirectory(at: module.deletingLastPathComponent(), withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["CFLAGS"] = cflags
        let build = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), [root.appendingPathComponent("Examples/plugins/c-hello/build.sh").path, module.path],
            environment: environment)
        try #require(build.status == 0, "build.sh failed: \(build.stderr)")
    }

    /// A manifest directory with the example built into `plugins/hello.wasm`.
    static func sandbox(
        allowedHosts: [String], options: String, defaults: String = "{}", folder: ScratchDirectory.Folder? = nil
    ) async throws -> URL {
        let folder = try folder ?? ScratchDirectory.Folder("plugin-e2e")
        try await build(folder.url.appendingPathComponent("plugins/hello.wasm"))
        let hosts = allowedHosts.map { "\"\($0)\"" }.joined(separator: ", ")
        return try folder.write("manifest.json", """
            {"version": 1, "defaults": \(defaults),
             "plugins": [{"name": "hello", "module": "plugins/hello.wasm", "allowedHosts": [\(hosts)]}],
             "sources": [{"id": "greetings", "provider": "hello", "options": \(options)}]}
            """)
    }

    @Test("a plugin source's items reach the output, its request served by the fixture server",
          .enabled(if: runs, "needs wasi-libc (apt install wasi-libc)"))
    func run() async throws {
        let server = try await FixtureServer.start()
        server.route("/greeting", try .recorded("plugin-greeting.txt", in: .module, contentType: "text/plain"))
        let manifest = try await Self.sandbox(
            allowedHosts: ["127.0.0.1"], options: #"{"names": ["ada", "grace"], "url": "\#(server.baseURL.absoluteString)/greeting"}"#)
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
            allowedHosts: ["api.example.com"], options: #"{"names": ["ada"], "url": "\#(server.baseURL.absoluteString)/greeting"}"#)
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
        let manifest = try await Self.sandbox(allowedHosts: ["api.example.com"], options: "{}")
        let result = try await Aggregate.run(["validate", "--manifest", manifest.path])
        #expect(result.status == 78)
        #expect(result.stderr.contains("sources[0].options.names: required: the names to greet"), "\(result.stderr)")
    }

    @Test("a plugin file replaced while watch runs is loaded at the next refresh, its items new for its new identity",
          .enabled(if: runs, "needs wasi-libc (apt install wasi-libc)"))
    func replacedWhileWatching() async throws {
        let folder = try ScratchDirectory.Folder("plugin-watch")
        let manifest = try await Self.sandbox(
            allowedHosts: [], options: #"{"names": ["ada"]}"#, defaults: #"{"refreshSeconds": 0.2}"#, folder: folder)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        let watch = try LiveProcess.start(
            Aggregate.binary, ["watch", "-f", "ndjson", "--stop-after", "120", "--manifest", manifest.path], environment: environment)
        #expect(await watch.waitFor { stdout, _ in stdout.contains("Hello, ada") })
        // Built beside it, then renamed over it: the watch never reads a half-written module.
        let next = folder.url.appendingPathComponent("plugins/next.wasm")
        try await Self.build(next, cflags: #"-DGREETING="Howdy""#)
        #expect(rename(next.path, folder.url.appendingPathComponent("plugins/hello.wasm").path) == 0)
        #expect(await watch.waitFor { stdout, _ in stdout.contains("Howdy, ada") })
        watch.signal(SIGINT)
        let result = await watch.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.components(separatedBy: "Hello, ada").count == 2, "the old build's item was printed once")
    }
}
