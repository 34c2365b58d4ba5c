import Domain
import Foundation
import GitLabProvider
import ProviderKit
import ProviderTesting
import Testing

@Suite("GitLab provider")
struct GitLabProviderTests {
    let provider = GitLabProvider()

    @Test("GitHub's options with projects instead of repos; bad values named at their JSON paths")
    func optionProblems() {
        #expect(provider.optionProblems(["projects": ["a/b", "a/b/c"], "state": "all", "labels": ["bug"], "since": "7d", "tokenType": "bearer"]).isEmpty)
        let byPath = Dictionary(provider.optionProblems([
            "projects": ["lonely", "a/b", "A/B", "a/../b"], "state": "opened", "tokenType": "oauth", "labels": ["a,b"],
        ]).map { ($0.path, $0.message) }, uniquingKeysWith: { $0 + "; " + $1 })
        #expect(byPath["sources[0].options.projects[0]"]?.contains("namespace/project") == true)
        #expect(byPath["sources[0].options.projects[3]"] != nil, "'..' is no path segment")
        #expect(provider.optionProblems(["projects": ["a/b", "A/B"]]).map(\.message).contains { $0.contains("listed twice") })
        #expect(byPath["sources[0].options.state"]?.contains("open, closed, all") == true)
        #expect(byPath["sources[0].options.tokenType"]?.contains("private, bearer") == true)
        #expect(byPath["sources[0].options.labels[0]"]?.contains("commas") == true)
        let plain = provider.optionProblems(["projects": ["a/b"], "token": .string(token), "baseURL": "http://gitlab.example.com"])
        #expect(plain.contains { $0.path == "sources[0].options.baseURL" && $0.message.contains("https://") })
        #expect(!plain.contains { $0.message.contains(token) })
        #expect(GitLabProvider().options.allSatisfy { !$0.help.isEmpty })
    }

    @Test("the request: the project path as one encoded segment, GitLab's names for state, labels, since, users")
    func request() async throws {
        let server = try await FixtureServer.start()
        server.route(nestedPath, try Fixture.page1.response())
        _ = try await run(options(server: server, [
            "labels": ["bug", "priority::1"], "since": "2026-11-01T00:00:00Z", "assignee": "lennie", "creator": "root",
            "maxItems": 2,
        ]))
        await server.stop()
        let request = try #require(server.requests.first)
        #expect(request.target.hasPrefix("/api/v4/projects/group%2Fsub%2Fproject/issues?"))
        #expect(request.query("state") == "opened" && request.query("labels") == "bug,priority::1")
        #expect(request.query("updated_after") == "2026-11-01T00:00:00Z")
        #expect(request.query("assignee_username") == "lennie" && request.query("author_username") == "root")
        #expect(request.query("per_page") == "2")
    }

    @Test("the project's encoded slashes survive the transport, with or without proxy: direct",
          arguments: [false, true])
    func encodedPathSurvives(direct: Bool) async throws {
        let server = try await FixtureServer.start()
        server.route(nestedPath, try Fixture.page1.response())
        let report = try await run(options(server: server, direct ? ["proxy": "direct"] : [:]))
        await server.stop()
        #expect(report.status == .ok, "\(String(describing: report.error))")
        #expect(server.requests.first?.target.hasPrefix("/api/v4/projects/group%2Fsub%2Fproject/issues?") == true,
                "\(server.requests.first?.target ?? "no request")")
    }

    @Test("state all sends no state; closed sends closed", arguments: [("all", nil), ("closed", "closed")] as [(String, String?)])
    func states(state: String, sent: String?) async throws {
        let server = try await FixtureServer.start()
        server.route(nestedPath, try Fixture.page1.response())
        _ = try await run(options(server: server, ["state": .string(state)]))
        await server.stop()
        #expect(server.requests.first?.query("state") == sent)
    }

    @Test("the token goes as PRIVATE-TOKEN, or as a Bearer authorization with tokenType bearer")
    func tokenHeaders() async throws {
        let server = try await FixtureServer.start()
        server.route(nestedPath, try Fixture.page1.response())
        _ = try await run(options(server: server))
        _ = try await run(options(server: server, ["tokenType": "bearer"]))
        _ = try await run(options(server: server, token: nil))
        await server.stop()
        let requests = server.requests
        #expect(requests[0].header("PRIVATE-TOKEN") == token && requests[0].header("Authorization") == nil)
        #expect(requests[1].header("Authorization") == "Bearer \(token)" && requests[1].header("PRIVATE-TOKEN") == nil)
        #expect(requests[2].header("Authorization") == nil && requests[2].header("PRIVATE-TOKEN") == nil)
    }

    @Test("pages follow Link rel=next, or X-Next-Page when there is no Link, until the last", arguments: [true, false])
    func pagination(withLink: Bool) async throws {
        let server = try await FixtureServer.start()
        let next = "\(server.baseURL.absoluteString)/api/v4/projects/group%2Fsub%2Fproject/issues?page=2&per_page=50&state=opened"
        let headers: [(name: String, value: String)] = withLink
            ? [("Link", "<\(next)>; rel=\"next\", <\(next)>; rel=\"last\""), ("X-Next-Page", "2")]
            : [("X-Next-Page", "2"), ("X-Page", "1"), ("X-Total", "3")]
        server.route(nestedPath, query: ["page": "2"], try Fixture.page2.response(headers: [("X-Next-Page", ""), ("X-Page", "2")]))
        server.route(nestedPath, try Fixture.page1.response(headers: headers))
        let report = try await run(options(server: server))
        await server.stop()
        #expect(report.status == .ok, "\(String(describing: report.error))")
        #expect(report.items.map(\.id) == ["group/sub/project#12", "group/sub/project#11", "group/sub/project#10"])
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.query("page") == "2" && server.requests.last?.query("state") == "opened")
        #expect(server.requests.allSatisfy { $0.header("PRIVATE-TOKEN") == token })
    }

    @Test("an issue that moved to the next page while paging (one opened in between) is kept once")
    func shiftedPage() async throws {
        let server = try await FixtureServer.start()
        // Page 2 as GitLab answers after a new issue pushed the list down by one: page 1's last issue again first.
        let first = try JSONSerialization.jsonObject(with: Fixture.page1.response().body) as? [Any] ?? []
        let second = try JSONSerialization.jsonObject(with: Fixture.page2.response().body) as? [Any] ?? []
        var shifted = try Fixture.page2.response(headers: [("X-Next-Page", "")])
        shifted.body = try JSONSerialization.data(withJSONObject: Array(first.suffix(1)) + second)
        server.route(nestedPath, query: ["page": "2"], shifted)
        server.route(nestedPath, try Fixture.page1.response(headers: [("X-Next-Page", "2")]))
        let report = try await run(options(server: server))
        await server.stop()
        #expect(server.requests.count == 2)
        #expect(report.items.map(\.id) == ["group/sub/project#12", "group/sub/project#11", "group/sub/project#10"])
    }

    @Test("maxItems stops paging once enough issues are kept")
    func maxItemsStopsPaging() async throws {
        let server = try await FixtureServer.start()
        server.route(nestedPath, try Fixture.page1.response(headers: [("X-Next-Page", "2")]))
        let report = try await run(options(server: server, ["maxItems": 2]))
        await server.stop()
        #expect(report.items.count == 2 && server.requests.count == 1)
        #expect(report.warnings == ["group/sub/project: 2 issues kept (maxItems); the tracker lists more, which were not fetched"],
                "a cap that leaves issues out says so")
    }

    @Test("a next-page link to another host is not followed with the token; the first page's issues stay, with a warning naming page 2")
    func foreignNextPage() async throws {
        let server = try await FixtureServer.start()
        server.route(nestedPath, try Fixture.page1.response(headers: [("Link", "<https://elsewhere.example/api/v4/x?page=2>; rel=\"next\"")]))
        let report = try await run(options(server: server))
        await server.stop()
        #expect(report.status == .ok && report.items.count == 2)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.hasPrefix("group/sub/project: page 2 not read (badResponse: ") == true, "\(report.warnings)")
        #expect(report.warnings.first?.contains("elsewhere.example") == true)
        #expect(report.warnings.first?.hasSuffix("the first page kept") == true)
        #expect(server.requests.count == 1)
    }

    @Test("a later page that fails keeps the pages before it, with a warning naming the page")
    func laterPageFails() async throws {
        let server = try await FixtureServer.start()
        server.route(nestedPath, query: ["page": "2"], FixtureResponse(status: 500, body: Data("{}".utf8)))
        server.route(nestedPath, try Fixture.page1.response(headers: [("X-Next-Page", "2")]))
        let report = try await run(options(server: server, ["maxRetries": 0]))
        await server.stop()
        #expect(report.status == .ok && report.items.count == 2)
        #expect(report.warnings.first?.hasPrefix("group/sub/project: page 2 not read (") == true, "\(report.warnings)")
        #expect(server.requests.count == 2)
    }

    @Test("a 404 project is a warning with GitLab's message; the other project stays")
    func notFound() async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("group/gone"), try Fixture.notFound.response(status: 404))
        server.route(nestedPath, try Fixture.page1.response())
        let report = try await run(options(server: server, projects: ["group/gone", "group/sub/project"]))
        await server.stop()
        #expect(report.status == .ok && report.items.count == 2)
        #expect(report.warnings.contains { $0.contains("group/gone") && $0.contains("404 Project Not Found") && $0.contains("token cannot read it") },
                "\(report.warnings)")
    }

    @Test("a refused token is unauthorized and never printed")
    func unauthorized() async throws {
        let server = try await FixtureServer.start()
        server.route(nestedPath, try Fixture.unauthorized.response(status: 401))
        let capture = LogCapture()
        let report = try await run(options(server: server, ["maxRetries": 0]), logger: capture.logger())
        await server.stop()
        #expect(report.error?.kind == .unauthorized)
        #expect(report.error?.message.contains("401 Unauthorized") == true && report.error?.message.contains("tokenType") == true)
        for text in SourceRunner.texts(of: report) + capture.messages { #expect(!text.contains(token)) }
    }
}
