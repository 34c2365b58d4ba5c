import Domain
import Foundation
import ProviderTesting
import Testing

@Suite("TMDB credentials")
struct TMDBSecretTests {
    @Test("an API key travels as api_key, and neither logs nor a failed report ever show it")
    func apiKeyNeverPrinted() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, query: ["page": "1"], try Fixture.popular.page(1, of: 2))
        server.route(searchPath, query: ["page": "2"], try Fixture.invalidKey.response(status: 401))
        let capture = LogCapture()
        let report = await run(try makeSource(
            server: server, options: ["query": "wonka", "pages": 2], logger: capture.logger(level: .info)))
        let requests = server.requests
        await server.stop()

        #expect(requests.allSatisfy { $0.query("api_key") == apiKey }, "the key itself reaches the service")
        #expect(requests.allSatisfy { $0.header("Authorization") == nil })
        #expect(report.warnings.first?.contains("Invalid API key") == true)
        #expect(capture.messages.count == 2, "one --verbose line per request")
        #expect(capture.messages.allSatisfy { $0.contains("api_key=***") })
        let everything = SourceRunner.texts(of: report) + capture.messages
        #expect(!everything.contains { $0.contains(apiKey) })
    }

    @Test("an access token travels as a Bearer header only, and is never shown")
    func accessTokenNeverPrinted() async throws {
        let server = try await FixtureServer.start()
        server.route(popularPath, try Fixture.invalidKey.response(status: 401))
        let capture = LogCapture()
        let source = try makeSource(
            server: server, options: ["mode": "popular", "apiKey": nil, "accessToken": .string(accessToken)],
            logger: capture.logger(level: .trace))
        let report = await run(source)
        let request = try #require(server.requests.first)
        await server.stop()

        #expect(request.header("Authorization") == "Bearer \(accessToken)")
        #expect(request.query("api_key") == nil)
        #expect(report.error?.kind == .unauthorized)
        #expect(!capture.messages.isEmpty)
        let everything = SourceRunner.texts(of: report) + capture.messages
        #expect(!everything.contains { $0.contains(accessToken) || $0.contains("tmdbTOKEN") })
    }
}
