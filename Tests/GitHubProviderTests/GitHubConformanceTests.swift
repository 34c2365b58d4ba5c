import Domain
import Foundation
import GitHubProvider
import ProviderTesting
import Testing

/// The contract every provider honours, checked by ProviderTesting's conformance kit.
@Suite("GitHub provider conformance", .serialized)
struct GitHubConformanceTests {
    static let subject = ConformanceSubject.http(
        "github", provider: GitHubProvider(), kind: .issue, secrets: [token],
        options: { baseURL in
            ["repos": ["octo-org/octo-repo", "octo-org/other", "octo-org/third"], "token": .string(token),
             "baseURL": .string(baseURL.absoluteString)]
        },
        success: { try Fixture.pullRequestsPage() },
        invalidOptions: [
            .init("a repository without an owner", options: ["repos": ["swift"]], path: "sources[0].options.repos[0]"),
            .init("an unknown state", options: ["repos": ["a/b"], "state": "opened"], path: "sources[0].options.state"),
        ])

    @Test("honours the provider contract", arguments: ConformanceCheck.allCases)
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
