import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Testing
import WasmPluginProvider

/// ProviderTesting's conformance kit and fault matrix against a plugin: the Rust example (built from source), its
/// HTTP through the host, its errors mapped by the plugin itself.
@Suite("Rust example plugin: conformance and fault matrix", .serialized,
       .enabled(if: RustExamplePluginTests.runs, "needs Debian's rustc and libstd-rust-dev-wasm32 (apt install rustc libstd-rust-dev-wasm32 lld-14)"))
struct RustPluginConformanceTests {
    static let token = "plugin-conformance-token-6f1c"

    /// The module, built once for the suite.
    static let module: Task<URL, any Error> = Task { try await RustExamplePluginTests.build() }

    static func subject() async throws -> ConformanceSubject {
        let provider = WasmPluginProvider(PluginDeclaration(
            // The fault matrix's unresolvable host is allowed, so that its DNS failure reaches the host's client.
            name: "records", module: try await module.value,
            allowedHosts: ["127.0.0.1", "localhost", "aggregate-fault-matrix.invalid"]))
        let records = #"[{"id": 1, "title": "One", "score": 1}, {"id": 2, "title": "Two", "score": 2}, {"id": 3, "title": "Three"}]"#
        return ConformanceSubject.http(
            "records", provider: provider, kind: .record, secrets: [token],
            options: { baseURL in
                ["url": .string(baseURL.appendingPathComponent("records").absoluteString), "credentials": ["token": .string(token)]]
            },
            success: { .json(records) },
            invalidOptions: [.init("a url that is not http(s)", options: ["url": "ftp://example.com/x"], path: "sources[0].options.url")])
    }

    /// Every check but bounded concurrency: a source of this plugin makes one request, so there is nothing to bound.
    @Test("honours the provider contract", arguments: ConformanceCheck.allCases.filter { $0 != .boundedConcurrency })
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: try await Self.subject())
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    /// Every cell but the size cap, which sets the `maxResponseBytes` option of the built-in HTTP providers: a
    /// plugin's options are its own, and its responses are bounded by its memory instead.
    @Test("each HTTP fault is reported with its kind beside a healthy source, and the token is never printed")
    func faultMatrix() async throws {
        let results = try await ProviderConformance.faultMatrix(
            try await Self.subject(), cells: FaultCell.allCases.filter { $0 != .overSizeCap })
        print(ProviderConformance.faultMatrixTable([("records", results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
