import Foundation
import ProviderTesting
import Testing

/// Runs the built `aggregate` binary with a GitHub source against the loopback fixture server.
@Suite("aggregate with a GitHub source, end to end")
struct GitHubEndToEndTests {
    static let token = "ghp_e2eTOKEN9f8e7d6c5b4a3928171605f4e3d2c1b0"

    /// Two issues in the shape of `GET /repos/{owner}/{repo}/issues` (one labelled, one pull request).
    static func page(_ repository: String) -> String {
        """
        [
          {"number": 7, "title": "Crash on empty input", "state": "open", "state_reason": null, "comments": 3,
           "user": {"login": "octocat"}, "assignees": [],
           "labels": [{"name": "bug", "color": "d73a4a"}, {"name": "good first issue", "color": "7057ff"}],
           "milestone": {"title": "v1.0"}, "created_at": "2026-11-01T09:00:00Z", "updated_at": "2026-11-20T10:00:00Z",
           "closed_at": null, "html_url": "https://github.com/\(repository)/issues/7"},
          {"number": 6, "title": "Add a --watch mode", "state": "open", "comments": 0, "draft": true,
           "user": {"login": "hubot"}, "labels": [], "created_at": "2026-11-01T09:00:00Z",
           "updated_at": "2026-11-19T10:00:00Z", "html_url": "https://github.com/\(repository)/pull/6",
           "pull_request": {"url": "https://api.github.com/repos/\(repository)/pulls/6"}}
        ]
        """
    }

    static let quota: [(name: String, value: String)] = [
        ("X-RateLimit-Limit", "5000"), ("X-RateLimit-Remaining", "4321"), ("X-RateLimit-Reset", "1900000000"),
        ("X-RateLimit-Resource", "core"),
    ]

    static func writeManifest(baseURL: URL, in directory: URL) throws -> URL {
        let manifest = """
            {
              "version": 1,
              "sources": [
                {
                  "id": "issues",
                  "provider": "github",
                  "options": {
                    "repos": ["octo-org/alpha", "octo-org/beta", "octo-org/gone"],
                    "token": "${GITHUB_TOKEN:-}",
                    "baseURL": "\(baseURL.absoluteString)"
                  }
                }
              ]
            }
            """
        let url = directory.appendingPathComponent("manifest.json")
        try manifest.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("issues of several repositories come out in every format, grouped by repository, and the token never does",
          arguments: [["--format", "json", "--verbose"], ["--format", "table", "--verbose"]])
    func issuesOfSeveralRepositories(arguments: [String]) async throws {
        let server = try await FixtureServer.start()
        server.route("/repos/octo-org/alpha/issues", .json(Self.page("octo-org/alpha"), headers: Self.quota))
        server.route("/repos/octo-org/beta/issues", .json(Self.page("octo-org/beta"), headers: Self.quota))
        server.route("/repos/octo-org/gone/issues", .json(#"{"message":"Not Found"}"#, status: 404, headers: Self.quota))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = try Self.writeManifest(baseURL: server.baseURL, in: directory)

        let run = try await Aggregate.run(["--manifest", manifest.path] + arguments, environment: ["GITHUB_TOKEN": Self.token])
        let requests = server.requests
        await server.stop()

        #expect(run.status == 0, "one unknown repository is a warning, not a failure: \(run.stderr)")
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.header("Authorization") == "Bearer \(Self.token)" })
        #expect(!run.stdout.contains(Self.token))
        #expect(!run.stderr.contains(Self.token))
        #expect(run.stderr.contains("GitHub quota after octo-org/alpha: 4321 of 5000 requests left (core)"))
        if arguments.contains("json") {
            let items = try run.items()
            #expect(items.map { $0["id"] as? String } == ["octo-org/alpha#7", "octo-org/beta#7"], "pull requests are left out")
            #expect(items.first?["subtitle"] as? String == "octo-org/alpha#7 · open · 3 comments")
            let fields = try #require(items.first?["fields"] as? [String: Any])
            #expect(fields["milestone"] as? String == "v1.0")
            #expect((fields["labels"] as? [[String: Any]])?.first?["color"] as? String == "d73a4a")
            let source = try #require(try run.sources().first)
            #expect(source["status"] as? String == "ok")
            #expect((source["warnings"] as? [String])?.first?.hasPrefix("octo-org/gone: notFound: HTTP 404") == true)
        } else {
            let lines = run.stdout.split(separator: "\n").map(String.init)
            let alpha = try #require(lines.firstIndex { $0.contains("octo-org/alpha#7") })
            let beta = try #require(lines.firstIndex { $0.contains("octo-org/beta#7") })
            #expect(alpha < beta)
            #expect(lines[alpha].contains("Crash on empty input") && lines[alpha].contains("[bug, good first issue]"))
        }
    }
}
