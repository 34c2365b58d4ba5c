import Domain
import Foundation
import ProviderTesting
import Testing

/// Bodies TMDB sends for lists that are not movie lists (recorded: a TV search, a multi search), and the
/// "absent, not empty" rule of the movie fields.
@Suite("TMDB results that are not movies")
struct NonMovieResultsTests {
    func report(_ page1: FixtureResponse, page2: FixtureResponse? = nil) async throws -> SourceReport {
        let server = try await FixtureServer.start()
        server.route(searchPath, query: ["page": "1"], page1)
        if let page2 { server.route(searchPath, query: ["page": "2"], page2) }
        let report = await run(try makeSource(server: server, options: ["query": "game of thrones", "pages": 2]))
        await server.stop()
        return report
    }

    @Test("a TV search body (name, first_air_date, no title) fails the source as a bad response, with no items")
    func tvBodyFails() async throws {
        let report = try await report(Fixture.tvSearch.response())
        #expect(report.status == .error)
        #expect(report.error?.kind == .badResponse)
        #expect(report.error?.message.contains("none of the 4 results is a movie") == true)
        #expect(report.items.isEmpty)
    }

    @Test("a multi search keeps its movies in order and warns how many results were not movies")
    func mixedBodyKeepsMovies() async throws {
        let report = try await report(Fixture.multiSearch.response())
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == [
            "738562", "322484", "1370289", "492606", "340200", "591278", "1020649", "1380804", "607300",
        ])
        #expect(report.items.allSatisfy { $0.kind == .movie && !$0.title.hasPrefix("TMDB movie") })
        #expect(!report.items.contains { $0.url?.absoluteString == "https://www.themoviedb.org/movie/1399" })
        #expect(report.warnings == [
            "page 1: badResponse: 4 of 13 results are not movies (no title: TV shows or people) and were left out",
        ])
    }

    @Test("a later page that is not movies is that page's warning; the movies of page 1 stay")
    func laterPageNotMovies() async throws {
        let tvAsPage2 = try Fixture.tvSearch.page(2, of: 2)
        let report = try await report(Fixture.popular.page(1, of: 2), page2: tvAsPage2)
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == (try Fixture.popular.ids).map(String.init))
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.hasPrefix("page 2: badResponse: none of the 4 results is a movie") == true)
    }

    @Test("genres are absent, not [], when the body has no genre_ids or an empty list")
    func genresAbsent() async throws {
        let withoutGenreIDs = try Fixture.search.edited { object in
            var results = object["results"] as? [[String: Any]] ?? []
            results[0]["genre_ids"] = nil
            object["results"] = results
        }
        let movie = try #require(try await report(withoutGenreIDs).items.first)
        #expect(movie.fields["genres"] == nil)
        #expect(movie.fields.keys.contains("genres") == false)
        #expect(movie.subtitle == "2004 · ★ 6.3", "no genre list in the subtitle either")

        // Recorded: "Game of Thrones Live Concert Experience 2018" has "genre_ids": [] and "release_date": "".
        let concert = try #require(try await report(Fixture.multiSearch.response()).items.first { $0.id == "1020649" })
        #expect(concert.fields.keys.contains("genres") == false)
        #expect(concert.date == nil)
        #expect(concert.fields["originalTitle"] == "Game of Thrones Live Concert Experience 2018")
    }

    @Test("every other field of an undated, posterless recorded movie is absent rather than empty")
    func absentNotEmpty() async throws {
        // Recorded: "Untitled Game of Thrones Film": "release_date": "", "poster_path": null, no votes yet.
        let film = try #require(try await report(Fixture.multiSearch.response()).items.first { $0.id == "1380804" })
        #expect(film.date == nil)
        #expect(film.fields["posterURL"] == nil)
        #expect(film.fields["genres"] == ["Action", "Fantasy"])
        let emptyValues = film.fields.filter { _, value in value == "" || value == [] || value == .null }
        #expect(emptyValues.isEmpty, "no key holds an empty value: \(emptyValues)")
    }
}
