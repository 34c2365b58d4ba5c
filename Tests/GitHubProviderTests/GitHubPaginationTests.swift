import Domain
import Foundation
import GitHubProvider
import ProviderTesting
import Testing

@Suite("GitHub source: pagination and pull requests")
struct GitHubPaginationTests {
    @Test("follows Link rel=\"next\" through /repositories/{id}/issues pages until the last page")
    func everyPageUntilTheLast() async throws {
        let server = try await FixtureServer.start()
        try server.serveOctokitPages()
        let report = await run(try makeSource(server: server))
        let requests = server.requests
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.compactMap(\.number) == Array((1...13).reversed()))
        #expect(requests.map(\.path) == [issuesPath("octo-org/octo-repo")] + Array(repeating: pagedPath, count: 4))
        #expect(requests.dropFirst().map { $0.query("page") } == ["2", "3", "4", "5"], "next URLs are followed as given")
        #expect(requests.dropFirst().allSatisfy { $0.query("per_page") == "3" }, "the recorded next URLs keep their query")
    }

    @Test("an issue that moved to the next page while paging (one opened in between) is kept once")
    func shiftedPage() async throws {
        let server = try await FixtureServer.start()
        try server.serveOctokitPages()
        // Page 3 as GitHub answers after a new issue pushed the list down by one: page 2's last issue again first.
        let second = try Fixture.octokitPage(2, server: server)
        var third = try Fixture.octokitPage(3, server: server)
        let pushed = (try JSONSerialization.jsonObject(with: second.body) as? [Any] ?? []).suffix(1)
        let rest = try JSONSerialization.jsonObject(with: third.body) as? [Any] ?? []
        third.body = try JSONSerialization.data(withJSONObject: Array(pushed) + rest)
        server.route(pagedPath, query: ["page": "3"], third)
        let report = await run(try makeSource(server: server))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.compactMap(\.number) == Array((1...13).reversed()))
    }

    @Test("stops at maxItems in the middle of the pages", arguments: [(3, 1), (5, 2), (7, 3), (12, 4)])
    func stopsAtMaxItems(maxItems: Int, pages: Int) async throws {
        let server = try await FixtureServer.start()
        try server.serveOctokitPages()
        let report = await run(try makeSource(server: server, extra: ["maxItems": .int(maxItems)]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.compactMap(\.number) == Array((14 - maxItems...13).reversed()))
        #expect(server.requestCount == pages, "no page is fetched once maxItems issues are kept")
    }

    @Test("the first request asks for the filters, 100 per page, with GitHub's headers and the token as a bearer")
    func firstRequest() async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("apple/swift"), .json("[]"))
        let report = await run(try makeSource(server: server, repos: ["apple/swift"], extra: [
            "state": "all", "labels": ["bug", "good first issue"], "since": "2026-11-01T00:00:00Z",
            "assignee": "hubot", "creator": "octocat",
        ]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.isEmpty)
        let request = try #require(server.requests.first)
        #expect(request.path == "/repos/apple/swift/issues")
        #expect(request.query("state") == "all")
        #expect(request.query("labels") == "bug,good first issue")
        #expect(request.query("since") == "2026-11-01T00:00:00Z")
        #expect(request.query("assignee") == "hubot")
        #expect(request.query("creator") == "octocat")
        #expect(request.query("per_page") == "100")
        #expect(request.header("Accept") == "application/vnd.github+json")
        #expect(request.header("X-GitHub-Api-Version") == "2022-11-28")
        #expect(request.header("Authorization") == "Bearer \(token)")
        #expect(!request.target.contains(token), "the token is never in the URL")
    }

    @Test("defaults: open issues, no Authorization header without a token or with an empty one",
          arguments: [nil, "", "  "] as [String?])
    func anonymous(token: String?) async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/octo-repo"), .json("[]"))
        _ = await run(try makeSource(server: server, token: token))
        await server.stop()
        let request = try #require(server.requests.first)
        #expect(request.header("Authorization") == nil)
        #expect(request.query("state") == "open")
        #expect(request.query("labels") == nil)
        #expect(request.query("since") == nil)
    }

    @Test("a relative since (\"7d\", \"24h\", \"30m\") asks for issues updated since that long ago",
          arguments: [("7d", 7 * 86_400.0), ("24h", 86_400), ("30m", 1800)])
    func relativeSince(text: String, seconds: Double) async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/octo-repo"), .json("[]"))
        _ = await run(try makeSource(server: server, extra: ["since": .string(text)]))
        await server.stop()
        let since = try #require(server.requests.first?.query("since").flatMap(ISO8601.date(from:)))
        #expect(abs(since.timeIntervalSinceNow + seconds) < 120)
    }

    @Test("pull requests are dropped before counting: maxItems counts issues and the next page is fetched")
    func pullRequestsExcluded() async throws {
        let server = try await FixtureServer.start()
        let next = [("Link", "<\(server.baseURL.absoluteString)\(pagedPath)?page=2>; rel=\"next\"")]
        server.route(issuesPath("octo-org/octo-repo"), try Fixture.pullRequestsPage(headers: next))
        server.route(pagedPath, query: ["page": "2"], try Fixture.octokitPage(2, server: server))
        let report = await run(try makeSource(server: server, extra: ["maxItems": 4]))
        await server.stop()
        #expect(report.status == .ok)
        // #41 and #40 are pull requests; #39's pull_request has only null URLs, so it is an issue.
        #expect(report.items.compactMap(\.number) == [42, 39, 38, 10])
        #expect(report.items.allSatisfy { $0.fields["isPullRequest"] == .bool(false) })
        #expect(report.items.allSatisfy { $0.fields["draft"] == nil })
        #expect(server.requestCount == 2, "5 items on page 1 but only 3 issues: page 2 is needed for the 4th")
    }

    @Test("includePullRequests keeps them, marked isPullRequest with their draft flag, and pages by maxItems")
    func pullRequestsIncluded() async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/octo-repo"), try Fixture.pullRequestsPage())
        let report = await run(try makeSource(server: server, extra: ["includePullRequests": true, "maxItems": 4]))
        await server.stop()
        #expect(report.items.compactMap(\.number) == [42, 41, 40, 39])
        let byNumber = Dictionary(uniqueKeysWithValues: report.items.map { ($0.number ?? 0, $0) })
        #expect(byNumber[41]?.fields["isPullRequest"] == .bool(true))
        #expect(byNumber[41]?.fields["draft"] == .bool(true))
        #expect(byNumber[40]?.fields["isPullRequest"] == .bool(true))
        #expect(byNumber[40]?.fields["draft"] == .bool(false))
        #expect(byNumber[40]?.url?.absoluteString == "https://github.com/octo-org/octo-repo/pull/40")
        #expect(byNumber[39]?.fields["isPullRequest"] == .bool(false))
        #expect(server.requests.first?.query("per_page") == "4", "every item counts, so a page of maxItems suffices")
    }

    @Test("two repositories are fetched at the same time and reported in manifest order")
    func twoRepositoriesConcurrently() async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/slow"), try Fixture.pullRequestsPage().delayed(2))
        server.route(issuesPath("octo-org/fast"), try Fixture.octokitPage(5, server: server).delayed(2))
        let report = await run(try makeSource(server: server, repos: ["octo-org/slow", "octo-org/fast"]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(server.peakConcurrentRequests == 2, "both repositories' first pages were in flight together")
        #expect(report.items.map(\.id) == ["octo-org/slow#42", "octo-org/slow#39", "octo-org/slow#38", "octo-org/fast#1"])
    }

    @Test("the pages of one repository are fetched one after another")
    func pagesInSequence() async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/octo-repo"), try Fixture.octokitPage(1, server: server).delayed(0.1))
        for page in 2...5 {
            server.route(pagedPath, query: ["page": String(page)], try Fixture.octokitPage(page, server: server).delayed(0.1))
        }
        let report = await run(try makeSource(server: server))
        await server.stop()
        #expect(report.items.count == 13)
        #expect(server.peakConcurrentRequests == 1)
    }

    @Test("a Link loop ends instead of repeating pages")
    func linkLoop() async throws {
        let server = try await FixtureServer.start()
        let selfLink = [("link", "<\(server.baseURL.absoluteString)\(issuesPath("octo-org/octo-repo"))?state=open&per_page=100>; rel=\"next\"")]
        server.route(issuesPath("octo-org/octo-repo"), try Fixture.octokitPage(5, server: server).with(headers: selfLink))
        let report = await run(try makeSource(server: server))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.count == 1)
        #expect(server.requestCount == 1)
    }

    @Test("with a token, a next-page link to another host is not followed; page 1's issues stay, with a warning")
    func crossOriginNextLink() async throws {
        let server = try await FixtureServer.start()
        let elsewhere = [("Link", "<http://127.0.0.2:\(server.port)\(pagedPath)?page=2>; rel=\"next\"")]
        server.route(issuesPath("octo-org/octo-repo"), try Fixture.octokitPage(1, server: server).with(headers: elsewhere))
        let report = await run(try makeSource(server: server))
        await server.stop()
        #expect(report.status == .ok)
        #expect(!report.items.isEmpty)
        #expect(report.warnings.contains { $0.hasPrefix("octo-org/octo-repo: page 2 not read") && $0.contains("not following it with the token") },
                "\(report.warnings)")
        #expect(server.requestCount == 1)
    }
}

extension FixtureResponse {
    /// The same response with `headers` replacing any of the same names.
    func with(headers replacements: [(name: String, value: String)]) -> FixtureResponse {
        var copy = self
        let names = Set(replacements.map { $0.name.lowercased() })
        copy.headers = headers.filter { !names.contains($0.name.lowercased()) } + replacements
        return copy
    }
}
