import Domain
import Foundation
import AcmeProvider
import ProviderKit
import ProviderTesting
import Testing

/// A made-up key: the tests prove it is sent, and the conformance suite that it is never printed.
let apiKey = "test-key-acme-5f3a9c0d1e2b"

/// Options for a source reading from the loopback server at `baseURL`.
func options(baseURL: URL) -> JSONValue {
    ["queries": ["swift", "rust", "go"], "apiKey": .string(apiKey), "baseURL": .string(baseURL.absoluteString)]
}

/// The recorded response in `Fixtures/` (replace the sample with a real recording; see SOURCES.md).
func recordedResponse() throws -> FixtureResponse {
    try .recorded("search.json", in: .module)
}

@Suite("Acme provider")
struct AcmeProviderTests {
    @Test("a recorded response becomes record items, in manifest order")
    func recordedResponseBecomesItems() async throws {
        let server = try await FixtureServer.start()
        server.route("/search", try recordedResponse())
        let source = try AcmeProvider().makeSource(.testing(id: "acme", options: options(baseURL: server.baseURL)))
        let report = await SourceRunner.run(source, id: "acme", provider: "acme")
        await server.stop()
        #expect(report.status == .ok, "\(report.error?.description ?? "")")
        #expect(report.warnings.isEmpty)
        #expect(report.items.map(\.id) == Array(repeating: ["101", "102"], count: 3).flatMap { $0 })
        #expect(report.items.allSatisfy { $0.kind == .record })
        #expect(server.requests.compactMap { $0.query("query") }.sorted() == ["go", "rust", "swift"])
        #expect(server.requests.allSatisfy { $0.header("Authorization") == "Bearer \(apiKey)" })
    }

    @Test("option problems are reported together, each with its JSON path")
    func optionProblems() {
        guard case .object(var bad) = options(baseURL: URL(string: "http://127.0.0.1:9")!) else { return }
        bad["queries"] = ["swift", ""]
        bad["maxRetries"] = 99
        do {
            _ = try AcmeProvider().makeSource(.testing(options: .object(bad)))
            Issue.record("the options were accepted")
        } catch {
            #expect(Set(error.problems.map(\.path)) == ["sources[0].options.queries[1]", "sources[0].options.maxRetries"])
        }
    }

    @Test("the name is lowercase and every option is documented")
    func documented() {
        let provider = AcmeProvider()
        #expect(provider.name == "acme")
        #expect(provider.options.allSatisfy { !$0.help.isEmpty })
    }
}
