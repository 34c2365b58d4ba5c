import Domain
import Foundation
import GitHubProvider
import ProviderTesting
import Testing

@Suite("GitHub source: errors, rate limits and the token")
struct GitHubFailureTests {
    static let repositoryPath = issuesPath("octo-org/octo-repo")

    @Test("an unknown repository is a warning naming it; the other repository is still listed")
    func unknownRepository() async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/missing"), try Fixture.written("written_404_not_found", status: 404))
        server.route(Self.repositoryPath, try Fixture.pullRequestsPage())
        let report = await run(try makeSource(server: server, repos: ["octo-org/missing", "octo-org/octo-repo"]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.compactMap(\.number) == [42, 39, 38])
        #expect(report.warnings == [
            "octo-org/missing: notFound: HTTP 404 Not Found: Not Found (no such repository, or the token cannot read it)",
        ])
    }

    @Test("a refused token fails every repository as unauthorized with GitHub's message, without retrying")
    func badCredentials() async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/a"), try Fixture.written("written_401_bad_credentials", status: 401))
        server.route(issuesPath("octo-org/b"), try Fixture.written("written_401_bad_credentials", status: 401))
        let report = await run(try makeSource(server: server, repos: ["octo-org/a", "octo-org/b"]))
        await server.stop()
        #expect(report.status == .error)
        #expect(report.error?.kind == .unauthorized)
        #expect(report.error?.message.contains("Bad credentials (the token was refused") == true)
        #expect(server.requestCount == 2)
    }

    @Test("an exhausted quota (403 or 429, remaining 0) is rateLimited; the message gives the reset time",
          arguments: [403, 429])
    func primaryRateLimit(status: Int) async throws {
        let server = try await FixtureServer.start()
        let headers = quotaHeaders(remaining: 0, resetIn: 3000)
        let reset = try #require(headers.first { $0.name == "X-RateLimit-Reset" }.flatMap { TimeInterval($0.value) })
        server.route(Self.repositoryPath, try Fixture.written("written_403_rate_limit_exceeded", status: status, headers: headers))
        let report = await run(try makeSource(server: server))
        await server.stop()
        #expect(report.status == .error)
        #expect(report.error?.kind == .rateLimited)
        let message = try #require(report.error?.message)
        #expect(message.contains("API rate limit exceeded"))
        #expect(message.contains("resets at \(ISO8601.string(from: Date(timeIntervalSince1970: reset)))"))
        #expect(message.contains("(in 49 min") || message.contains("(in 50 min"), "how long from now: \(message)")
        #expect(server.requestCount == 1, "a reset beyond the source's timeout is not waited for, nor retried")
    }

    @Test("an exhausted quota that resets within the timeout is waited out and the repository listed")
    func primaryRateLimitResetsSoon() async throws {
        let server = try await FixtureServer.start()
        server.route(Self.repositoryPath, [
            try Fixture.written("written_403_rate_limit_exceeded", status: 429, headers: quotaHeaders(remaining: 0, resetIn: 1)),
            try Fixture.pullRequestsPage(headers: quotaHeaders(remaining: 4999)),
        ])
        let report = await run(try makeSource(server: server))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.count == 3)
        #expect(server.requestCount == 2)
    }

    @Test("a secondary limit (403 + Retry-After) is waited out and retried")
    func secondaryLimitRetried() async throws {
        let server = try await FixtureServer.start()
        server.route(Self.repositoryPath, [
            try Fixture.written("written_403_secondary_rate_limit", status: 403, headers: [("Retry-After", "1")]),
            try Fixture.pullRequestsPage(),
        ])
        let report = await run(try makeSource(server: server))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.count == 3)
        #expect(server.requestCount == 2)
    }

    @Test("a secondary limit longer than the timeout fails that repository only")
    func secondaryLimitTooLong() async throws {
        let server = try await FixtureServer.start()
        server.route(issuesPath("octo-org/busy"),
                     try Fixture.written("written_403_secondary_rate_limit", status: 403, headers: [("Retry-After", "120")]))
        server.route(Self.repositoryPath, try Fixture.pullRequestsPage())
        let report = await run(try makeSource(server: server, repos: ["octo-org/busy", "octo-org/octo-repo"],
                                              timeoutSeconds: 15), timeoutSeconds: 15)
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.count == 3)
        let warning = try #require(report.warnings.first)
        #expect(warning.hasPrefix("octo-org/busy: rateLimited: HTTP 403 Forbidden: You have exceeded a secondary rate limit"))
        #expect(warning.contains("(in 2 min)"))
        #expect(server.requests(path: issuesPath("octo-org/busy")).count == 1)
    }

    @Test("a 422 is a configuration error carrying GitHub's field errors")
    func validationFailed() async throws {
        let server = try await FixtureServer.start()
        server.route(Self.repositoryPath, try Fixture.recorded("error_422_validation_failed_octokit", server: server))
        let report = await run(try makeSource(server: server))
        await server.stop()
        #expect(report.error?.kind == .configuration)
        #expect(report.error?.message == "octo-org/octo-repo: HTTP 422 Unprocessable Content: Validation Failed (color: invalid)")
    }

    @Test("a later page that fails keeps the first page's issues, with a warning naming the page")
    func laterPageFails() async throws {
        let server = try await FixtureServer.start()
        server.route(Self.repositoryPath, try Fixture.octokitPage(1, server: server))
        server.route(pagedPath, query: ["page": "2"], .json("[{\"number\": ", status: 200))
        let report = await run(try makeSource(server: server))
        await server.stop()
        #expect(report.status == .ok && report.error == nil)
        #expect(!report.items.isEmpty, "page 1's issues are kept")
        #expect(report.warnings.first?.hasPrefix("octo-org/octo-repo: page 2 not read (badResponse: undecodable response") == true,
                "\(report.warnings)")
    }

    @Test("--verbose reports the quota left once per repository")
    func verboseQuota() async throws {
        let capture = LogCapture()
        let server = try await FixtureServer.start()
        try server.serveOctokitPages()
        server.route(issuesPath("octo-org/other"), try Fixture.pullRequestsPage(headers: quotaHeaders(remaining: 4000)))
        let report = await run(try makeSource(server: server, repos: ["octo-org/octo-repo", "octo-org/other"],
                                              logger: capture.logger(level: .info)))
        await server.stop()
        #expect(report.status == .ok)
        let quota = capture.messages.filter { $0.contains("GitHub quota") }
        #expect(quota.count == 2)
        #expect(quota.contains {
            $0.hasPrefix("info GitHub quota after octo-org/octo-repo: 4918 of 5000 requests left (core), resets at 2022-07-19T05:36:39Z")
                && $0.contains("source=issues")
        }, "the last page's quota: \(quota)")
        #expect(quota.contains { $0.contains("after octo-org/other: 4000 of 5000 requests left (core)") })
    }

    @Test("the token is sent only as a header and never shown: not in errors, warnings, items or verbose logs",
          arguments: ["401", "404", "403-rate-limit", "403-secondary", "500-echo", "malformed-echo", "timeout", "refused", "ok"])
    func tokenNeverShown(fault: String) async throws {
        let capture = LogCapture()
        let server = try await FixtureServer.start()
        let echo = #"{"message":"token \#(token) is not allowed here"}"#
        switch fault {
        case "401": server.route(Self.repositoryPath, try Fixture.written("written_401_bad_credentials", status: 401))
        case "404": server.route(Self.repositoryPath, try Fixture.written("written_404_not_found", status: 404))
        case "403-rate-limit":
            server.route(Self.repositoryPath, try Fixture.written(
                "written_403_rate_limit_exceeded", status: 403, headers: quotaHeaders(remaining: 0)))
        case "403-secondary":
            server.route(Self.repositoryPath, try Fixture.written(
                "written_403_secondary_rate_limit", status: 403, headers: [("Retry-After", "60")]))
        case "500-echo": server.route(Self.repositoryPath, .json(echo, status: 500))
        case "malformed-echo": server.route(Self.repositoryPath, .json("[{\"title\": \(token)"))
        case "timeout": server.route(Self.repositoryPath, try Fixture.pullRequestsPage().delayed(5))
        case "ok": try server.serveOctokitPages()
        default: break
        }
        let baseURL = fault == "refused" ? try await FixtureServer.refusedURL() : server.baseURL
        // Short only where the timeout is the fault: five pages on a loaded machine need more.
        let timeout = fault == "timeout" ? 1.5 : SourceRunner.roomyTimeout
        let source = try GitHubProvider().makeSource(.testing(
            id: "issues",
            options: ["repos": ["octo-org/octo-repo"], "token": .string(token), "baseURL": .string(baseURL.absoluteString),
                      "maxRetries": 1],
            timeoutSeconds: timeout, logger: capture.logger()))
        let report = await run(source, timeoutSeconds: timeout)
        let requests = server.requests
        await server.stop()
        #expect((report.status == .ok) == (fault == "ok"))
        let everything = SourceRunner.texts(of: report) + capture.messages
        #expect(!everything.isEmpty)
        for text in everything { #expect(!text.contains(token)) }
        for request in requests {
            #expect(request.header("Authorization") == "Bearer \(token)")
            #expect(!request.target.contains(token))
        }
        if fault != "timeout" && fault != "refused" {
            #expect(capture.messages.contains { $0.contains("GET \(baseURL.absoluteString)/repos/octo-org/octo-repo/issues") },
                    "verbose request lines are there, without the token")
        }
    }
}
