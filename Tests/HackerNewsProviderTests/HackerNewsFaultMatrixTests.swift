import ProviderTesting
import Testing

/// Every HTTP fault, one at a time, on every endpoint (the list and the items), beside a healthy Hacker News source.
@Suite("Hacker News fault matrix", .serialized)
struct HackerNewsFaultMatrixTests {
    @Test("each fault is reported with its kind and the healthy source stays intact")
    func faultMatrix() async throws {
        let results = try await ProviderConformance.faultMatrix(HackerNewsConformanceTests.subject)
        print(ProviderConformance.faultMatrixTable([("hacker-news", results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
