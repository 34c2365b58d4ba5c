import Domain
import Foundation
import GitHubProvider
import Logging
import ProviderKit
import ProviderTesting

let token = "ghp_TESTtoken0123456789abcdefABCDEF012345"
let octokitRepositoryID = "515435940"
let pagedPath = "/repositories/\(octokitRepositoryID)/issues"

func issuesPath(_ repository: String) -> String { "/repos/\(repository)/issues" }

/// A fixture file of `Fixtures/`: a body, and for recordings the recorded headers.
enum Fixture {
    static func url(_ name: String) throws -> URL {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return url
    }

    /// `octokit_issues_page{N}` as recorded, its `Link` targets rewritten to `server` at serve time.
    static func octokitPage(_ number: Int, server: FixtureServer) throws -> FixtureResponse {
        try recorded("octokit_issues_page\(number)_2022-07-19", server: server)
    }

    /// A recording: the body file and the headers file, `https://api.github.com` in `Link` pointed at `server`.
    static func recorded(_ stem: String, server: FixtureServer) throws -> FixtureResponse {
        let headerText = try String(contentsOf: url("\(stem).headers.txt"), encoding: .utf8)
        var status = 200
        var headers: [(name: String, value: String)] = []
        for line in headerText.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("# status: ") {
                status = Int(line.dropFirst("# status: ".count).trimmingCharacters(in: .whitespaces)) ?? 200
                continue
            }
            guard !line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            // The server frames the body itself.
            if ["content-length", "connection", "transfer-encoding"].contains(name.lowercased()) { continue }
            if name.lowercased() == "link" {
                value = value.replacingOccurrences(of: "https://api.github.com", with: server.baseURL.absoluteString)
            }
            headers.append((name, value))
        }
        return FixtureResponse(status: status, headers: headers, body: try Data(contentsOf: url("\(stem).body.json")))
    }

    /// A body written for these tests, with the headers a test needs.
    static func written(
        _ stem: String, status: Int = 200, headers: [(name: String, value: String)] = []
    ) throws -> FixtureResponse {
        try .file(url("\(stem).body.json"), status: status, headers: headers)
    }

    static func pullRequestsPage(headers: [(name: String, value: String)] = []) throws -> FixtureResponse {
        try written("written_issues_with_pull_requests_labels_milestone", headers: headers)
    }
}

/// Quota headers as GitHub sends them, the reset `resetIn` seconds from now.
func quotaHeaders(remaining: Int, resetIn: TimeInterval = 3600) -> [(name: String, value: String)] {
    [
        ("X-RateLimit-Limit", "5000"), ("X-RateLimit-Remaining", String(remaining)),
        ("X-RateLimit-Reset", String(Int(Date().timeIntervalSince1970 + resetIn))),
        ("X-RateLimit-Used", String(5000 - remaining)), ("X-RateLimit-Resource", "core"),
    ]
}

extension FixtureServer {
    /// The octokit recording's five pages, the first at `/repos/{repository}/issues`, the rest where its
    /// `Link` headers point (`/repositories/515435940/issues?page=N`).
    func serveOctokitPages(firstAt repository: String = "octo-org/octo-repo") throws {
        route(issuesPath(repository), try Fixture.octokitPage(1, server: self))
        for page in 2...5 {
            route(pagedPath, query: ["page": String(page)], try Fixture.octokitPage(page, server: self))
        }
    }
}

/// Builds the source as `aggregate` would from a manifest entry pointing at the loopback server.
func makeSource(
    server: FixtureServer, repos: [String] = ["octo-org/octo-repo"], token: String? = token,
    extra: JSONObject = [:], timeoutSeconds: Double = SourceRunner.roomyTimeout, concurrency: Int = 4,
    logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
) throws -> any ItemSource {
    var options: JSONObject = [
        "repos": .array(repos.map(JSONValue.string)), "baseURL": .string(server.baseURL.absoluteString),
    ]
    if let token { options["token"] = .string(token) }
    options.merge(extra) { $1 }
    return try GitHubProvider().makeSource(.testing(
        id: "issues", options: .object(options), timeoutSeconds: timeoutSeconds, concurrency: concurrency,
        logger: logger))
}

func run(_ source: any ItemSource, timeoutSeconds: Double = SourceRunner.roomyTimeout, concurrency: Int = 4) async -> SourceReport {
    await SourceRunner.run(source, id: "issues", provider: "github", timeoutSeconds: timeoutSeconds, concurrency: concurrency)
}

extension Item {
    var number: Int? {
        if case .int(let number) = fields["number"] { return number }
        return nil
    }
}
