import Domain
import Foundation
import ProviderTesting
import Testing

@Suite("TMDB --query and recent queries")
struct TMDBQueryTests {
    @Test("--query replaces the manifest's query for the run, and the search is remembered")
    func overrideAndSave() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, try Fixture.search.response())
        let queries = InMemoryQueries()
        let report = await run(try makeSource(
            server: server, options: ["query": "Alien"], query: "Inception", queries: queries))
        let request = try #require(server.requests.first)
        await server.stop()

        #expect(report.status == .ok)
        #expect(request.query("query") == "Inception")
        #expect(try queries.recentQueries(maxCount: 20) == ["Inception"])
    }

    @Test("--query gives a query to a search source that has none in the manifest")
    func queryFromCommandLineOnly() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, try Fixture.search.response())
        let report = await run(try makeSource(server: server, query: "  RRRrrrr "))
        let request = try #require(server.requests.first)
        await server.stop()

        #expect(report.items.count == 1)
        #expect(request.query("query") == "RRRrrrr", "surrounding spaces are not sent")
    }

    @Test("a failed search is not remembered")
    func failedSearchNotSaved() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, try Fixture.invalidKey.response(status: 401))
        let queries = InMemoryQueries()
        _ = await run(try makeSource(server: server, options: ["query": "Alien"], queries: queries))
        await server.stop()

        #expect(try queries.recentQueries(maxCount: 20).isEmpty)
    }

    @Test("list modes ignore --query and remember nothing")
    func listModesIgnoreQuery() async throws {
        let server = try await FixtureServer.start()
        server.route(popularPath, try Fixture.popular.page(1, of: 1))
        let queries = InMemoryQueries()
        let report = await run(try makeSource(
            server: server, options: ["mode": "popular"], query: "Inception", queries: queries))
        let request = try #require(server.requests.first)
        await server.stop()

        #expect(report.items.count == 20)
        #expect(request.path == popularPath)
        #expect(request.query("query") == nil)
        #expect(try queries.recentQueries(maxCount: 20).isEmpty)
    }

    @Test("a store that cannot save is a warning; the movies are still delivered")
    func storeFailureIsWarning() async throws {
        struct BrokenQueries: MoviesQueriesRepository {
            func recentQueries(maxCount: Int) throws(SourceError) -> [String] { [] }
            func saveRecentQuery(_ query: String) throws(SourceError) { throw SourceError(.io, "disk full") }
        }
        let server = try await FixtureServer.start()
        server.route(searchPath, try Fixture.search.response())
        let report = await run(try makeSource(server: server, options: ["query": "x"], queries: BrokenQueries()))
        await server.stop()

        #expect(report.status == .ok)
        #expect(report.items.count == 1)
        #expect(report.warnings == ["recent queries: disk full"])
    }
}
