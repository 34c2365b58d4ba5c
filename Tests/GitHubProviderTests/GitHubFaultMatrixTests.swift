import Domain
import GitHubProvider
import ProviderKit
import ProviderTesting
import Testing

/// Every HTTP fault, one at a time, beside a healthy GitHub source in the same run.
@Suite("GitHub fault matrix", .serialized)
struct GitHubFaultMatrixTests {
    static let subject = ConformanceSubject.http(
        "github", provider: GitHubProvider(), kind: .issue, secrets: [token],
        options: { baseURL in
            ["repos": ["octo-org/octo-repo"], "token": .string(token), "baseURL": .string(baseURL.absoluteString)]
        },
        success: { try .file(Fixture.url("octokit_issues_page5_2022-07-19.body.json")) })

    @Test("each fault is reported with its kind, the healthy source stays intact and no token is printed")
    func faultMatrix() async throws {
        let results = try await ProviderConformance.faultMatrix(Self.subject)
        print(ProviderConformance.faultMatrixTable([("github", results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
