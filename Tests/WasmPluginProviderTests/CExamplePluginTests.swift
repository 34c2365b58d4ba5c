import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Testing
import WasmPluginProvider

/// Examples/plugins/c-hello, built from source by its own script with clang --target=wasm32-wasi and wasi-libc.
@Suite("C example plugin")
struct CExamplePluginTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let script = root.appendingPathComponent("Examples/plugins/c-hello/build.sh")

    /// Whether wasi-libc is installed (clang with the wasm32 target comes with the Swift toolchain).
    static let toolchainInstalled = FileManager.default.fileExists(atPath: "/usr/lib/wasm32-wasi/libc.a")

    /// Skipped only where the toolchain is missing and CI is not set: .ci/run installs it (wasi-libc), and under
    /// CI=true a missing toolchain fails the test instead.
    static var runs: Bool { toolchainInstalled || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Builds the example with its own script into a scratch directory.
    static func build() async throws -> URL {
        let output = try ScratchDirectory.make("c-plugin").appendingPathComponent("hello.wasm")
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), [script.path, output.path], environment: ProcessInfo.processInfo.environment)
        try #require(result.status == 0, "build.sh failed: \(result.stderr)")
        return output
    }

    @Test("the C example greets each name with the greeting it fetched through the host",
          .enabled(if: runs, "needs clang with the wasm32 target and wasi-libc (apt install wasi-libc)"))
    func greets() async throws {
        let module = try await Self.build()
        let server = try await FixtureServer.start()
        server.route("/greeting", FixtureResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Data("Hi there\n".utf8)))
        let provider = WasmPluginProvider(PluginDeclaration(name: "hello", module: module, allowedHosts: ["127.0.0.1"]))
        let report = try await PluginFixture.run(
            provider, options: ["names": ["ada", "grace"], "url": .string("\(server.baseURL.absoluteString)/greeting")])
        let requests = server.requests(path: "/greeting").count
        await server.stop()
        #expect(report.status == .ok, "\(String(describing: report.error))")
        #expect(report.items.map(\.title) == ["Hello, ada", "Hello, grace"])
        #expect(report.items.map(\.subtitle) == ["Hi there", "Hi there"])
        #expect(report.items.last?.fields["n"] == .int(2))
        #expect(requests == 1)
    }

    @Test("the C example's option check reports a missing option at its path",
          .enabled(if: runs, "needs clang with the wasm32 target and wasi-libc (apt install wasi-libc)"))
    func checksOptions() async throws {
        let provider = WasmPluginProvider(PluginDeclaration(name: "hello", module: try await Self.build(), allowedHosts: []))
        #expect(throws: ManifestError(path: "sources[0].options.names", "required: the names to greet")) {
            try provider.makeSource(.testing(options: [:]))
        }
    }
}

