import Domain
import Foundation
import GitLabProvider
import ProviderTesting
import Testing

/// The contract every provider honours, checked by ProviderTesting's conformance kit.
@Suite("GitLab provider conformance", .serialized)
struct GitLabConformanceTests {
    static let subject = ConformanceSubject.http(
        "gitlab", provider: GitLabProvider(), kind: .issue, secrets: [token],
        options: { baseURL in
            ["projects": ["group/one", "group/sub/two", "group/three"], "token": .string(token),
             "baseURL": .string(baseURL.absoluteString)]
        },
        success: { try Fixture.page1.response() },
        invalidOptions: [
            .init("a project without a namespace", options: ["projects": ["gitlab"]], path: "sources[0].options.projects[0]"),
            .init("an unknown token type", options: ["projects": ["a/b"], "tokenType": "oauth"], path: "sources[0].options.tokenType"),
        ])

    @Test("honours the provider contract", arguments: ConformanceCheck.allCases)
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    @Test("the Bearer form of the token is as secret as the PRIVATE-TOKEN one")
    func bearerSecrecy() async throws {
        var subject = Self.subject
        guard case .http(let makeOptions, let success) = subject.backend else {
            Issue.record("the GitLab subject is an HTTP subject")
            return
        }
        subject.backend = .http(options: { baseURL in
            guard case .object(var object) = makeOptions(baseURL) else { return makeOptions(baseURL) }
            object["tokenType"] = "bearer"
            return .object(object)
        }, success: success)
        let violations = try await ProviderConformance.run(.secrecy, on: subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
