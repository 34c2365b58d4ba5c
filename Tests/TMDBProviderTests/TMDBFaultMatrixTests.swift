import Domain
import ProviderKit
import ProviderTesting
import Testing
import TMDBProvider

/// Every HTTP fault, one at a time, beside a healthy TMDB source in the same run.
@Suite("TMDB fault matrix", .serialized)
struct TMDBFaultMatrixTests {
    static let subject = ConformanceSubject.http(
        "tmdb", provider: TMDBProvider(), kind: .movie, secrets: [apiKey],
        options: { baseURL in
            ["query": "matrix", "apiKey": .string(apiKey), "baseURL": .string(baseURL.absoluteString)]
        },
        success: { try Fixture.search.response() })

    @Test("each fault is reported with its kind, the healthy source stays intact and no key is printed")
    func faultMatrix() async throws {
        let results = try await ProviderConformance.faultMatrix(Self.subject)
        print(ProviderConformance.faultMatrixTable([("tmdb", results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
