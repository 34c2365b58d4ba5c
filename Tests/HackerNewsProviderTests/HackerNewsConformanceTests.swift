import Domain
import Foundation
import HackerNewsProvider
import ProviderTesting
import Testing

/// The contract every provider honours, checked by ProviderTesting's conformance kit: the list at its own route,
/// every item request answered with a recorded story. HN has no key, so `secrecy` does not apply.
@Suite("Hacker News provider conformance", .serialized)
struct HackerNewsConformanceTests {
    static let subject = ConformanceSubject.http(
        "hacker-news", provider: HackerNewsProvider(), kind: .entry,
        options: { baseURL in ["maxItems": 4, "baseURL": .string(baseURL.absoluteString)] },
        success: { try Fixture.intel.response() },
        invalidOptions: [
            .init("maxItems past the list's length", options: ["maxItems": 501], path: "sources[0].options.maxItems"),
            .init("an unknown list", options: ["list": "ask"], path: "sources[0].options.list"),
        ],
        routes: { ["/v0/topstories.json": try Fixture.topStories.response()] })

    @Test("honours the provider contract", arguments: ConformanceCheck.allCases.filter { $0 != .secrecy })
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
