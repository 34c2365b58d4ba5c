import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Testing
import WasmPluginProvider

/// Examples/plugins/rust-records, built from source by its own script with Debian's rustc 1.63 for
/// wasm32-unknown-unknown: a second language on the same ABI.
@Suite("Rust example plugin")
struct RustExamplePluginTests {
    static let script = CExamplePluginTests.root.appendingPathComponent("Examples/plugins/rust-records/build.sh")

    /// .ci/run installs rustc, libstd-rust-dev-wasm32 and lld-14; under CI=true their absence fails the tests.
    static var runs: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/rustlib/wasm32-unknown-unknown")
            || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    static func build() async throws -> URL {
        let output = try ScratchDirectory.make("rust-plugin").appendingPathComponent("records.wasm")
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), [script.path, output.path], environment: ProcessInfo.processInfo.environment)
        try #require(result.status == 0, "build.sh failed: \(result.stderr)")
        return output
    }

    @Test("the Rust example maps each fetched record to an item: id, title, url, and the rest as fields",
          .enabled(if: runs, "needs Debian's rustc and libstd-rust-dev-wasm32 (apt install rustc libstd-rust-dev-wasm32 lld-14)"))
    func mapsRecords() async throws {
        let server = try await FixtureServer.start()
        server.route("/records", .json(#"""
            [{"id": 7, "title": "Caf\u00e9 \"one\"", "url": "https://example.com/7", "score": 4.5, "tags": ["a", "b"]},
             {"id": "x-2", "title": "Two 🎉", "done": true, "owner": null}]
            """#))
        let provider = WasmPluginProvider(PluginDeclaration(
            name: "records", module: try await Self.build(), allowedHosts: ["127.0.0.1"]))
        let report = try await PluginFixture.run(provider, options: ["url": .string("\(server.baseURL.absoluteString)/records")])
        await server.stop()

        #expect(report.status == .ok, "\(String(describing: report.error))")
        #expect(report.items.map(\.id) == ["7", "x-2"])
        #expect(report.items.map(\.title) == [#"Café "one""#, "Two 🎉"])
        #expect(report.items.first?.url?.absoluteString == "https://example.com/7")
        #expect(report.items.first?.fields["score"] == .double(4.5))
        #expect(report.items.first?.fields["tags"] == ["a", "b"])
        #expect(report.items.last?.fields["done"] == .bool(true))
    }

    @Test("a 404 is the source's notFound error, in the plugin's words",
          .enabled(if: runs, "needs Debian's rustc and libstd-rust-dev-wasm32 (apt install rustc libstd-rust-dev-wasm32 lld-14)"))
    func serverError() async throws {
        let server = try await FixtureServer.start()
        server.route("/records", .json("{}", status: 404))
        let url = "\(server.baseURL.absoluteString)/records"
        let provider = WasmPluginProvider(PluginDeclaration(
            name: "records", module: try await Self.build(), allowedHosts: ["127.0.0.1"]))
        let report = try await PluginFixture.run(provider, options: ["url": .string(url)])
        await server.stop()
        #expect(report.error == SourceError(.notFound, "plugin 'records': \(url) answered HTTP 404"))
    }

    @Test("its option check wants an http(s) url",
          .enabled(if: runs, "needs Debian's rustc and libstd-rust-dev-wasm32 (apt install rustc libstd-rust-dev-wasm32 lld-14)"))
    func checksOptions() async throws {
        let provider = WasmPluginProvider(PluginDeclaration(name: "records", module: try await Self.build(), allowedHosts: []))
        #expect(throws: ManifestError(path: "sources[0].options.url", "required: the http(s) URL of a JSON array of records")) {
            try provider.makeSource(.testing(options: ["url": "ftp://x"]))
        }
    }
}
