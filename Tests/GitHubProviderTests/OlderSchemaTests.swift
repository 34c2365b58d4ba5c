import Domain
import Foundation
import GitHubProvider
import ProviderTesting
import Testing

/// GitHub's issues as older GitHub and GitHub Enterprise send them: one `assignee` object and no `assignees`,
/// no `state_reason` or `locked`, and a `pull_request` object on every item, marked by `html_url` (no `url`).
@Suite("GitHub issues in the older schema")
struct OlderSchemaTests {
    static func items(_ fixture: String, includePullRequests: Bool = true) async throws -> [Item] {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/octo-repo"), try Fixture.written(fixture))
        let report = await run(try makeSource(server: server, extra: ["includePullRequests": .bool(includePullRequests)]))
        await server.stop()
        #expect(report.status == .ok)
        return report.items
    }

    @Test("the 2013 recording: plain issues stay issues, the pull request marked only by html_url is one")
    func recording2013() async throws {
        let items = try await Self.items("octokit_rb_rails_admin_issues_2013-06-16")
        #expect(items.map(\.number) == [1672, 1669, 1667, 1665])
        #expect(items.map { $0.fields["isPullRequest"] } == [false, true, false, false])
        let issue = try #require(items.first)
        #expect(issue.title == "NoMethodError in Rails_admin/main#new")
        #expect(issue.fields["author"] == "terenceleejx")
        #expect(issue.fields["assignees"] == [])
        #expect(issue.fields["stateReason"] == nil)
        #expect(issue.fields["comments"] == 3)
        #expect(issue.date == ISO8601.date(from: "2013-06-16T04:50:55Z"))
        #expect(items.last?.fields["labels"] == [["name": "enhancement", "color": "02e10c"]])
    }

    @Test("pull requests of the older schema are left out unless asked for")
    func olderPullRequestsFiltered() async throws {
        let items = try await Self.items("octokit_rb_rails_admin_issues_2013-06-16", includePullRequests: false)
        #expect(items.map(\.number) == [1672, 1667, 1665])
    }

    @Test("a single assignee object is mapped when there is no assignees array")
    func singleAssignee() async throws {
        let items = try await Self.items("written_older_schema_single_assignee")
        #expect(items.map(\.number) == [7, 6, 5])
        #expect(items.map { $0.fields["assignees"] } == [["hubot"], ["octocat"], []])
        #expect(items.map { $0.fields["isPullRequest"] } == [false, true, false])
        let issue = try #require(items.first)
        #expect(issue.fields["milestone"] == "v0.9")
        #expect(issue.fields["labels"] == [["name": "bug", "color": "fc2929"]])
        #expect(items[1].fields["draft"] == nil)
        #expect(items[1].fields["closedAt"] == "2013-06-12T10:00:00Z")
    }

    @Test("the assignees array still wins in today's schema, and today's pull requests are still marked")
    func currentSchemaUnchanged() async throws {
        let items = try await Self.items("written_issues_with_pull_requests_labels_milestone")
        let first = try #require(items.first)
        #expect(first.fields["assignees"] == ["hubot", "monalisa"])
        #expect(items.map { $0.fields["isPullRequest"] } == [false, true, true, false, false])
    }
}
