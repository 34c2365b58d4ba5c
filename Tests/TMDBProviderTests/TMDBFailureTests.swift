import Domain
import Foundation
import ProviderTesting
import Testing

@Suite("TMDB failures")
struct TMDBFailureTests {
    @Test("each recorded error shape maps to its kind with TMDB's own message", arguments: [
        (Fixture.invalidKey, 401, SourceError.Kind.unauthorized, "Invalid API key: You must be granted a valid key."),
        (Fixture.notFound, 404, .notFound, "The resource you requested could not be found."),
        (Fixture.validationError, 422, .configuration, "query must be provided"),
    ])
    func errorShapes(fixture: Fixture, status: Int, kind: SourceError.Kind, message: String) async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, try fixture.response(status: status))
        let report = await run(try makeSource(server: server, options: ["query": "Inception", "pages": 3]))
        let count = server.requestCount
        await server.stop()

        let error = try #require(report.error)
        #expect(report.status == .error)
        #expect(error.kind == kind)
        #expect(error.message.contains(message))
        #expect(error.message.contains("HTTP \(status)"))
        #expect(count == 1, "a failed first page stops the listing")
        #expect(!SourceRunner.texts(of: report).joined().contains(apiKey))
    }

    @Test("the compact 401 body the live API sends reads the same")
    func compactUnauthorized() async throws {
        let server = try await FixtureServer.start()
        server.route(popularPath, .json(
            #"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#,
            status: 401))
        let report = await run(try makeSource(server: server, options: ["mode": "popular"]))
        await server.stop()

        #expect(report.error?.kind == .unauthorized)
        #expect(report.error?.message.contains("Invalid API key") == true)
    }

    @Test("a body that is not a movie list is a bad response, not a crash")
    func undecodable() async throws {
        let server = try await FixtureServer.start()
        server.route(popularPath, .json(#"{"page":1,"results":[{"title":"no id"}]}"#))
        let report = await run(try makeSource(server: server, options: ["mode": "popular"]))
        await server.stop()

        #expect(report.error?.kind == .badResponse)
        #expect(report.error?.message.contains("id") == true)
    }

    @Test("a search with no query fails as a configuration problem without asking TMDB")
    func missingQuery() async throws {
        let server = try await FixtureServer.start()
        let report = await run(try makeSource(server: server))
        let count = server.requestCount
        await server.stop()

        #expect(report.error?.kind == .configuration)
        #expect(report.error?.message.contains("--query") == true)
        #expect(count == 0)
    }
}
