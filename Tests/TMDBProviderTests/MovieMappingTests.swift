import Domain
import Foundation
import ProviderTesting
import Testing

@Suite("TMDB movies as items")
struct MovieMappingTests {
    /// Runs one page of `response` through a popular-mode source and returns its items.
    func items(
        _ response: FixtureResponse, options: JSONObject = [:]
    ) async throws -> [Item] {
        let server = try await FixtureServer.start()
        server.route(popularPath, response)
        let report = await run(try makeSource(server: server, options: (["mode": "popular"] as JSONObject).merging(options) { $1 }))
        await server.stop()
        #expect(report.status == .ok, "\(report.error?.description ?? "")")
        return report.items
    }

    @Test("a recorded movie becomes a movie item with its page, date, genre names and full poster URL")
    func recordedMovie() async throws {
        let wonka = try #require(try await items(Fixture.popular.response()).first)
        #expect(wonka.kind == .movie)
        #expect(wonka.id == "787699")
        #expect(wonka.title == "Wonka")
        #expect(wonka.subtitle == "2023 · ★ 7.2 · Comedy, Family, Fantasy")
        #expect(wonka.url?.absoluteString == "https://www.themoviedb.org/movie/787699")
        #expect(wonka.date == ISO8601.date(from: "2023-12-06T00:00:00Z"))
        #expect(wonka.fields["posterURL"] == "https://image.tmdb.org/t/p/w500/qhb1qOilapbapxWQn9jtRCMwXJF.jpg")
        #expect(wonka.fields["genres"] == ["Comedy", "Family", "Fantasy"])
        #expect(wonka.fields["movieId"] == 787699)
        #expect(wonka.fields["originalTitle"] == "Wonka")
        #expect(wonka.fields["originalLanguage"] == "en")
        #expect(wonka.fields["voteCount"] == 1401)
        #expect(wonka.fields["popularity"] == .double(3205.442))
        #expect(wonka.fields["overview"]?.stringValue?.hasPrefix("Willy Wonka") == true)
    }

    @Test("an integer vote_average (recorded: Granit, 6) reads as a number like any other")
    func integerVoteAverage() async throws {
        let granit = try #require(try await items(Fixture.popular.response()).first { $0.id == "918692" })
        #expect(granit.fields["voteAverage"] == .double(6))
        #expect(granit.subtitle?.contains("★ 6") == true)
    }

    @Test("an empty release_date means no date, and null poster and backdrop mean no poster URL")
    func emptyDateAndNullPoster() async throws {
        // Derived from the search recording: TMDB sends these values for undated, posterless films.
        let response = try Fixture.search.edited { object in
            var results = object["results"] as? [[String: Any]] ?? []
            results[0]["release_date"] = ""
            results[0]["poster_path"] = NSNull()
            results[0]["backdrop_path"] = NSNull()
            object["results"] = results
        }
        let movie = try #require(try await items(response).first)
        #expect(movie.title == "RRRrrrr!!!")
        #expect(movie.date == nil)
        #expect(movie.fields["posterURL"] == nil)
        #expect(movie.subtitle == "★ 6.3 · Comedy", "no year in front when there is no date")
    }

    @Test("posters join imageBaseURL with one slash, whatever the option's trailing slash")
    func imageBaseURL() async throws {
        let wonka = try #require(try await items(
            Fixture.popular.response(), options: ["imageBaseURL": "https://images.example/t/p/original/"]).first)
        #expect(wonka.fields["posterURL"] == "https://images.example/t/p/original/qhb1qOilapbapxWQn9jtRCMwXJF.jpg")
    }

    @Test("each mode asks its own endpoint with the listing's parameters", arguments: [
        ("popular", "/3/movie/popular"), ("top_rated", "/3/movie/top_rated"),
        ("now_playing", "/3/movie/now_playing"), ("trending", "/3/trending/movie/week"),
    ])
    func endpoints(mode: String, path: String) async throws {
        let server = try await FixtureServer.start()
        server.route(path, try Fixture.popular.page(1, of: 1))
        var options: JSONObject = ["mode": .string(mode), "language": "ko-KR"]
        if mode != "trending" { options["region"] = "KR" }
        let report = await run(try makeSource(server: server, options: options))
        let request = try #require(server.requests.first)
        await server.stop()

        #expect(report.items.count == 20)
        #expect(request.path == path)
        #expect(request.query("language") == "ko-KR")
        #expect(request.query("region") == (mode == "trending" ? nil : "KR"))
        #expect(request.query("query") == nil)
        #expect(request.query("page") == "1")
    }

    @Test("a search sends its text, year and adult filter")
    func searchParameters() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, try Fixture.search.response())
        _ = await run(try makeSource(server: server, options: [
            "query": "RRRrrrr & co", "year": 2004, "includeAdult": true,
        ]))
        let request = try #require(server.requests.first)
        await server.stop()

        #expect(request.query("query") == "RRRrrrr & co")
        #expect(request.query("year") == "2004")
        #expect(request.query("include_adult") == "true")
    }
}

/// Bodies that are not what a movie listing should be, made from the recorded page.
@Suite("TMDB: results that are not movies, and fields TMDB leaves out")
struct NotMoviesTests {
    /// The recorded popular page with `change` applied to each result (index, result).
    static func popular(_ change: (Int, inout [String: Any]) -> Void) throws -> FixtureResponse {
        var page = try #require(try JSONSerialization.jsonObject(with: Fixture.popular.data) as? [String: Any])
        var results = try #require(page["results"] as? [[String: Any]])
        for index in results.indices { change(index, &results[index]) }
        page["results"] = results
        return .json(String(decoding: try JSONSerialization.data(withJSONObject: page), as: UTF8.self))
    }

    /// A result turned into a TV show's: `name` and `first_air_date`, no `title`.
    static func makeTVShow(_ result: inout [String: Any]) {
        result["name"] = result["title"]
        result["original_name"] = result["original_title"]
        result["first_air_date"] = result["release_date"]
        for key in ["title", "original_title", "release_date"] { result[key] = nil }
    }

    func load(_ response: FixtureResponse) async throws -> SourceReport {
        let server = try await FixtureServer.start()
        server.route(popularPath, response)
        let report = await run(try makeSource(server: server, options: ["mode": "popular"]))
        await server.stop()
        return report
    }

    @Test("a body of TV shows (no title) is no movie list: the source fails as badResponse, no 'TMDB movie' items")
    func tvBody() async throws {
        let report = try await load(try Self.popular { _, result in Self.makeTVShow(&result) })
        #expect(report.status == .error)
        #expect(report.error?.kind == .badResponse)
        #expect(report.error?.message.contains("is a movie") == true)
        #expect(report.items.isEmpty)
    }

    @Test("results without a movie title among movies are left out with a badResponse warning naming how many")
    func mixedBody() async throws {
        let total = try Fixture.popular.ids.count
        let report = try await load(try Self.popular { index, result in if index < 2 { Self.makeTVShow(&result) } })
        #expect(report.status == .ok)
        #expect(report.items.count == total - 2)
        #expect(!report.items.contains { $0.title.hasPrefix("TMDB movie") })
        #expect(report.warnings == [
            "page 1: badResponse: 2 of \(total) results are not movies (no title: TV shows or people) and were left out"
        ])
    }

    @Test("genres are absent when TMDB sent no genre_ids or an empty list (docs/PROVIDERS.md: no value, no key)")
    func genresAbsent() async throws {
        let report = try await load(try Self.popular { index, result in
            if index == 0 { result["genre_ids"] = nil }
            if index == 1 { result["genre_ids"] = [Int]() }
        })
        #expect(report.items[0].fields["genres"] == nil)
        #expect(report.items[0].fields.keys.contains("genres") == false)
        #expect(report.items[1].fields.keys.contains("genres") == false)
        #expect(report.items[2].fields["genres"] != nil)
    }
}
