import Domain
import Foundation
import GitHubProvider
import ProviderTesting
import Testing

@Suite("GitHub issues: what an item carries")
struct IssueResponseMappingTests {
    static func items(includePullRequests: Bool = true) async throws -> [Item] {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/octo-repo"), try Fixture.pullRequestsPage())
        let report = await run(try makeSource(server: server, extra: ["includePullRequests": .bool(includePullRequests)]))
        await server.stop()
        return report.items
    }

    @Test("an issue with labels, assignees and a milestone maps to the documented item")
    func fullIssue() async throws {
        let item = try #require(try await Self.items().first)
        #expect(item.kind == .issue)
        #expect(item.id == "octo-org/octo-repo#42")
        #expect(item.title == "Crash when the manifest is empty")
        #expect(item.subtitle == "octo-org/octo-repo#42 · open · 4 comments")
        #expect(item.url?.absoluteString == "https://github.com/octo-org/octo-repo/issues/42")
        #expect(item.date == ISO8601.date(from: "2026-11-21T10:15:00Z"))
        #expect(item.fields == [
            "repository": "octo-org/octo-repo",
            "number": 42,
            "state": "open",
            "labels": [["name": "bug", "color": "d73a4a"], ["name": "good first issue", "color": "7057ff"]],
            "author": "octocat",
            "assignees": ["hubot", "monalisa"],
            "milestone": "v1.0",
            "comments": 4,
            "createdAt": "2026-10-01T09:00:00Z",
            "updatedAt": "2026-11-21T10:15:00Z",
            "isPullRequest": false,
        ])
    }

    @Test("a closed issue carries its state reason and closing time; one comment is singular")
    func closedIssue() async throws {
        let item = try #require(try await Self.items().first { $0.title == "Document the exit codes" })
        #expect(item.subtitle == "octo-org/octo-repo#38 · closed · 2 comments")
        #expect(item.fields["stateReason"] == "completed")
        #expect(item.fields["closedAt"] == "2026-11-19T16:45:00Z")
        let pull = try #require(try await Self.items().first { $0.title == "Add a --watch mode" })
        #expect(pull.subtitle == "octo-org/octo-repo#41 · open · 1 comment")
    }

    @Test("the 2022 octokit recording (no state reason, labels or milestone) maps too")
    func octokitRecording() async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/octo-repo"), try Fixture.octokitPage(5, server: server))
        let report = await run(try makeSource(server: server))
        await server.stop()
        let item = try #require(report.items.first)
        #expect(item.fields["labels"] == [])
        #expect(item.fields["milestone"] == nil)
        #expect(item.fields["author"] != nil)
        #expect(item.url?.host == "github.com")
    }

    @Test("GitHub's older schema, a single `assignee` and no `assignees`, keeps its assignee")
    func olderSchemaAssignee() async throws {
        // The recorded 2022 page, turned into the older shape: each issue's author as its one `assignee`.
        let recorded = try Data(contentsOf: Fixture.url("octokit_issues_page1_2022-07-19.body.json"))
        var issues = try #require(try JSONSerialization.jsonObject(with: recorded) as? [[String: Any]])
        for index in issues.indices {
            issues[index]["assignees"] = nil
            issues[index]["assignee"] = issues[index]["user"]
        }
        let logins = issues.compactMap { ($0["user"] as? [String: Any])?["login"] as? String }
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/octo-repo"), .json(String(decoding: try JSONSerialization.data(withJSONObject: issues), as: UTF8.self)))
        let report = await run(try makeSource(server: server))
        await server.stop()
        #expect(report.items.count == issues.count)
        #expect(report.items.map { $0.fields["assignees"] } == logins.map { .array([.string($0)]) })
    }
}
