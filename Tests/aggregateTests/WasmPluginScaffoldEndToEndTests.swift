import Foundation
import ProviderTesting
import Testing

/// `aggregate new-provider --wasm NAME` writes a plugin whose own test script builds it (clang --target=wasm32-wasi,
/// wasi-libc) and runs it through this `aggregate` with its manifest, offline.
@Suite("aggregate new-provider --wasm, end to end")
struct WasmPluginScaffoldEndToEndTests {
    @Test("a scaffolded plugin builds with its script and its items come out of aggregate",
          .enabled(if: PluginEndToEndTests.runs, "needs wasi-libc (apt install wasi-libc)"))
    func scaffoldBuildsAndRuns() async throws {
        let folder = try ScratchDirectory.make("wasm-scaffold-e2e").appendingPathComponent("acme-news")
        let made = try await Aggregate.run(["new-provider", "--wasm", "acme-news", "--directory", folder.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.split(separator: "\n").contains { $0.hasSuffix("/acme-news/acme-news.c") })
        #expect(made.stderr.contains("test.sh"), "the next steps say how to test it")

        var environment = ProcessInfo.processInfo.environment
        environment["AGGREGATE"] = Aggregate.binary.path
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        environment["NO_COLOR"] = "1"
        let test = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), [folder.appendingPathComponent("test.sh").path], environment: environment)
        #expect(test.status == 0, "test.sh: \(test.stdout) \(test.stderr)")
        #expect(test.stdout.contains("ok: acme-news emitted its 3 items"))

        // Its option check is the manifest's: a count out of range is exit 78 with the option's path.
        let manifest = folder.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: #""count": 3"#, with: #""count": 0"#)
        try Data(text.utf8).write(to: manifest)
        let invalid = try await Aggregate.run(["validate", "--manifest", manifest.path])
        #expect(invalid.status == 78)
        #expect(invalid.stderr.contains("sources[0].options.count"), "\(invalid.stderr)")
    }

    @Test("a name the manifest cannot use is a usage error; a built-in provider's name is refused", arguments: [
        ("Acme_News", "cannot be a provider name"), ("feed", "is a built-in provider"),
    ])
    func badName(name: String, message: String) async throws {
        let folder = try ScratchDirectory.make("wasm-scaffold-bad").appendingPathComponent("p")
        let result = try await Aggregate.run(["new-provider", "--wasm", name, "--directory", folder.path])
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("--help teaches: what a plugin is, the toolchain, and the files it writes")
    func help() async throws {
        let result = try await Aggregate.run(["new-provider", "--help"])
        #expect(result.status == 0)
        for phrase in ["--wasm", "wasm32-wasi", "wasi-libc", "test.sh", "allowedHosts", "docs/PLUGINS.md"] {
            #expect(result.stdout.contains(phrase), "\(phrase)")
        }
    }
}
