import Domain
import Foundation
import GitHubProvider
import ProviderKit
import ProviderTesting
import Testing

@Suite("GitHub provider: options")
struct GitHubProviderTests {
    /// The problems of `options` as "path: message" lines.
    static func problems(_ options: JSONValue) -> [String] { GitHubProvider().optionProblems(options).map(\.description) }

    @Test("valid options build a source", arguments: [
        ["repos": ["apple/swift"]],
        ["repos": ["apple/swift", "swiftlang/swift-format"], "state": "closed", "labels": ["bug"], "since": "7d",
         "assignee": "*", "creator": "octocat", "includePullRequests": true, "maxItems": 100, "token": "",
         "baseURL": "https://ghe.example.com/api/v3", "maxRetries": 0],
        ["repos": ["a-b/c.d_e"], "since": "2026-11-01", "token": "ghp_x", "baseURL": "http://127.0.0.1:9"],
    ] as [JSONValue])
    func validOptions(options: JSONValue) {
        #expect(Self.problems(options) == [])
    }

    @Test("each bad option is reported with its JSON path", arguments: [
        (["state": "open"], "sources[0].options.repos: required option is missing"),
        (["repos": []], "sources[0].options.repos: name at least one repository"),
        (["repos": "apple/swift"], "sources[0].options.repos: expected an array, found a string"),
        (["repos": ["apple/swift", "swift"]], "sources[0].options.repos[1]: expected \"owner/name\" (like \"apple/swift\"), found 'swift'"),
        (["repos": ["apple/swift/extra"]], "sources[0].options.repos[0]: expected \"owner/name\" (like \"apple/swift\"), found 'apple/swift/extra'"),
        (["repos": [42]], "sources[0].options.repos[0]: expected an \"owner/name\" string, found an integer"),
        (["repos": ["apple/swift", "Apple/Swift"]], "sources[0].options.repos[1]: 'Apple/Swift' is listed twice"),
        (["repos": ["a/b"], "state": "opne"], "sources[0].options.state: 'opne' is not one of open, closed, all (did you mean 'open'?)"),
        (["repos": ["a/b"], "labels": ["bug", ""]], "sources[0].options.labels[1]: a label cannot be empty"),
        (["repos": ["a/b"], "labels": ["a,b"]], "sources[0].options.labels[0]: a label cannot contain ',' (GitHub separates labels with commas)"),
        (["repos": ["a/b"], "since": "yesterday"],
         "sources[0].options.since: expected an ISO 8601 date (\"2026-11-01T00:00:00Z\") or a relative time (\"30m\", \"24h\", \"7d\", \"2w\"), found 'yesterday'"),
        (["repos": ["a/b"], "since": "0d"],
         "sources[0].options.since: expected an ISO 8601 date (\"2026-11-01T00:00:00Z\") or a relative time (\"30m\", \"24h\", \"7d\", \"2w\"), found '0d'"),
        (["repos": ["a/b"], "assignee": ""], "sources[0].options.assignee: is empty; leave it out to list everyone's issues"),
        (["repos": ["a/b"], "includePullRequests": "yes"], "sources[0].options.includePullRequests: expected true or false, found a string"),
        (["repos": ["a/b"], "maxItems": 0], "sources[0].options.maxItems: must be between 1 and 10000, found 0"),
        (["repos": ["a/b"], "token": "Bearer ghp_x"], "sources[0].options.token: contains whitespace; give the token alone, without \"Bearer\""),
        (["repos": ["a/b"], "maxRetries": 11], "sources[0].options.maxRetries: must be between 0 and 10, found 11"),
        (["repos": ["a/b"], "repo": "a/b"],
         "sources[0].options.repo: unknown option (did you mean 'repos'?); this provider accepts: repos, state, labels, since, assignee, creator, includePullRequests, maxItems, token, baseURL, maxRetries, requestTimeoutSeconds, maxResponseBytes, caFile, proxy, insecureSkipVerify"),
    ] as [(JSONValue, String)])
    func badOption(options: JSONValue, expected: String) {
        #expect(Self.problems(options) == [expected])
    }

    @Test("a token is never sent over plain http to a host that is not loopback; anonymous is allowed")
    func plainHTTPWithToken() {
        let problems = Self.problems(["repos": ["a/b"], "token": "ghp_secret", "baseURL": "http://ghe.example.com/api/v3"])
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("sources[0].options.baseURL: refusing to send 'token' over plain http://") == true)
        #expect(!problems.joined().contains("ghp_secret"))
        #expect(Self.problems(["repos": ["a/b"], "token": "", "baseURL": "http://ghe.example.com/api/v3"]) == [])
    }

    @Test("every problem is reported at once")
    func problemsTogether() {
        let problems = Self.problems(["repos": ["nope"], "state": "done", "maxItems": -1, "colour": "red"])
        #expect(problems.map { $0.split(separator: ":").first.map(String.init) ?? "" } == [
            "sources[0].options.repos[0]", "sources[0].options.state", "sources[0].options.maxItems",
            "sources[0].options.colour",
        ])
    }

    @Test("the provider lists its options for `aggregate providers`")
    func describesItself() {
        let provider = GitHubProvider()
        #expect(provider.name == "github")
        #expect(provider.options.filter(\.required).map(\.name) == ["repos"])
        #expect(provider.options.first { $0.name == "maxItems" }?.defaultValue == "50")
        #expect(provider.options.first { $0.name == "baseURL" }?.defaultValue == "https://api.github.com")
    }
}
