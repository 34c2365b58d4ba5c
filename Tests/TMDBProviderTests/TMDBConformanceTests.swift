import Domain
import Foundation
import ProviderTesting
import TMDBProvider
import Testing

/// The contract every provider honours, checked by ProviderTesting's conformance kit.
@Suite("TMDB provider conformance", .serialized)
struct TMDBConformanceTests {
    static let subject = ConformanceSubject.http(
        "tmdb", provider: TMDBProvider(), kind: .movie, secrets: [apiKey],
        options: { baseURL in
            ["query": "wonka", "pages": 3, "apiKey": .string(apiKey), "baseURL": .string(baseURL.absoluteString)]
        },
        success: { try Fixture.search.page(1, of: 3) },
        invalidOptions: [
            .init("too many pages", options: ["query": "x", "pages": 50, "apiKey": "k"], path: "sources[0].options.pages"),
            .init("an unknown mode", options: ["mode": "upcomming", "apiKey": "k"], path: "sources[0].options.mode"),
        ])

    @Test("honours the provider contract", arguments: ConformanceCheck.allCases)
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
