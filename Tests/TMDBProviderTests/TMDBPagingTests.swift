import Domain
import Foundation
import ProviderTesting
import Testing

@Suite("TMDB paging")
struct TMDBPagingTests {
    @Test("pages after the first are fetched at the same time, and the movies stay in page order without repeats")
    func concurrentPagesInOrder() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, query: ["page": "1"], try Fixture.popular.page(1, of: 4))
        // Later pages answer in reverse order: the output must not follow arrival.
        server.route(searchPath, query: ["page": "2"], try Fixture.topRated.page(2, of: 4).delayed(2.5))
        server.route(searchPath, query: ["page": "3"], try Fixture.search.page(3, of: 4).delayed(1.5))
        server.route(searchPath, query: ["page": "4"], try Fixture.popular.page(4, of: 4).delayed(1.5))
        let source = try makeSource(server: server, options: ["query": "wonka", "pages": 4])

        let report = await run(source)
        let requests = server.requests
        let peak = server.peakConcurrentRequests
        await server.stop()

        #expect(report.status == .ok)
        #expect(report.warnings.isEmpty)
        let expected = try Fixture.popular.ids + Fixture.topRated.ids + Fixture.search.ids
        #expect(report.items.map(\.id) == expected.map(String.init), "page 4 repeats page 1, so it adds nothing")
        #expect(requests.first?.query("page") == "1", "page 1 goes first: it says how many pages exist")
        #expect(requests.compactMap { $0.query("page") }.sorted() == ["1", "2", "3", "4"])
        #expect(peak >= 2, "pages 2–4 were being answered at the same moment")
    }

    @Test("no page past total_pages is asked for, however many pages the source wants")
    func totalPagesRespected() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, query: ["page": "1"], try Fixture.popular.page(1, of: 2))
        server.route(searchPath, query: ["page": "2"], try Fixture.topRated.page(2, of: 2))
        let source = try makeSource(server: server, options: ["query": "wonka", "pages": 20])

        let report = await run(source)
        let pages = server.requests.compactMap { $0.query("page") }
        await server.stop()

        #expect(report.status == .ok)
        #expect(pages.sorted() == ["1", "2"])
        #expect(report.items.count == 40)
    }

    @Test("a one-page result sends one request even when more pages are wanted")
    func singlePage() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, try Fixture.search.response())
        let source = try makeSource(server: server, options: ["query": "RRRrrrr", "pages": 3])

        let report = await run(source)
        let count = server.requestCount
        await server.stop()

        #expect(report.items.map(\.title) == ["RRRrrrr!!!"])
        #expect(count == 1)
    }

    @Test("never more pages in flight than the source's concurrency")
    func concurrencyLimit() async throws {
        let server = try await FixtureServer.start()
        server.route(popularPath, query: ["page": "1"], try Fixture.popular.page(1, of: 500))
        server.route(popularPath, try Fixture.topRated.page(2, of: 500).delayed(0.2))
        let source = try makeSource(server: server, options: ["mode": "popular", "pages": 6], concurrency: 2)

        let report = await run(source, concurrency: 2)
        let count = server.requestCount
        let peak = server.peakConcurrentRequests
        await server.stop()

        #expect(report.status == .ok)
        #expect(count == 6)
        #expect(peak <= 2)
    }

    @Test("a failed later page is a warning naming it, and the other pages are kept")
    func failedLaterPage() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, query: ["page": "1"], try Fixture.popular.page(1, of: 3))
        server.route(searchPath, query: ["page": "2"], try Fixture.notFound.response(status: 404))
        server.route(searchPath, query: ["page": "3"], try Fixture.topRated.page(3, of: 3))
        let source = try makeSource(server: server, options: ["query": "wonka", "pages": 3])

        let report = await run(source)
        await server.stop()

        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == (try Fixture.popular.ids + Fixture.topRated.ids).map(String.init))
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.contains("page 2") == true)
        #expect(report.warnings.first?.contains("could not be found") == true)
    }
}
