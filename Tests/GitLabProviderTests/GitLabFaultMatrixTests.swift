import ProviderTesting
import Testing

/// Every HTTP fault, one at a time, beside a healthy GitLab source in the same run.
@Suite("GitLab fault matrix", .serialized)
struct GitLabFaultMatrixTests {
    @Test("each fault is reported with its kind, the healthy source stays intact and no token is printed")
    func faultMatrix() async throws {
        let results = try await ProviderConformance.faultMatrix(GitLabConformanceTests.subject)
        print(ProviderConformance.faultMatrixTable([("gitlab", results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
