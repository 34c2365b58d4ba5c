import Domain
import Foundation
import ProviderTesting
import Testing

/// Issues as `issue` items with GitHub's field keys.
@Suite("GitLab issue mapping")
struct GitLabIssueMappingTests {
    func items(_ fixture: Fixture, project: String = "group/sub/project", extra: JSONObject = [:]) async throws -> [Item] {
        let server = try await FixtureServer.start()
        server.route(issuesPath(project), try fixture.response())
        let report = try await run(options(server: server, projects: [project], extra))
        await server.stop()
        #expect(report.status == .ok, "\(String(describing: report.error))")
        return report.items
    }

    @Test("the documented v4 issue (NARKOZ/gitlab's fixture): closed, milestone, assignee, notes, milliseconds")
    func documentedIssue() async throws {
        let item = try #require(try await items(.narkozIssues, project: "example/example", extra: ["state": "all"]).first)
        #expect(item.kind == .issue && item.id == "example/example#1")
        #expect(item.title == "Ut commodi ullam eos dolores perferendis nihil sunt.")
        #expect(item.fields["state"] == "closed" && item.fields["number"] == 1)
        #expect(item.fields["author"] == "root" && item.fields["assignees"] == ["lennie"])
        #expect(item.fields["milestone"] == "v3.0" && item.fields["comments"] == 1)
        #expect(item.fields["updatedAt"] == "2016-01-04T15:31:46Z" && item.fields["closedAt"] == nil)
        #expect(item.fields["labels"] == [] && item.fields["isPullRequest"] == false)
        #expect(item.url?.absoluteString == "http://example.com/example/example/issues/1")
        #expect(item.subtitle == "example/example#1 · closed · 1 comment")
    }

    @Test("opened reads as open; labels as names or as objects with a colour")
    func statesAndLabels() async throws {
        let first = try #require(try await items(.page1).first)
        #expect(first.fields["state"] == "open")
        #expect(first.fields["labels"] == [["name": "bug"], ["name": "priority::1"]])
        #expect(first.fields["assignees"] == ["lennie", "maria"] && first.fields["milestone"] == "v1.0")
        let closed = try #require(try await items(.page2, extra: ["state": "closed"]).first)
        #expect(closed.fields["labels"] == [["name": "bug", "color": "d9534f"]], "GitHub's colour form: no '#'")
        #expect(closed.fields["closedAt"] == "2026-11-18T08:00:00Z" && closed.fields["author"] == "maria")
    }

    @Test("the same field keys as a GitHub issue item")
    func sameKeysAsGitHub() async throws {
        let gitHubKeys: Set<String> = [
            "repository", "number", "state", "stateReason", "labels", "author", "assignees", "milestone", "comments",
            "createdAt", "updatedAt", "closedAt", "isPullRequest", "draft",
        ]
        let all = try await items(.page1) + items(.page2)
        // Two pages of fixtures hold three issues: a mapping that lost them must not pass by checking none.
        try #require(all.count == 3, "\(all.map(\.id))")
        for item in all {
            #expect(Set(item.fields.keys).isSubset(of: gitHubKeys), "\(Set(item.fields.keys).subtracting(gitHubKeys))")
        }
    }
}
