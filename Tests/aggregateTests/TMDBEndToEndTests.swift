import Foundation
import ProviderTesting
import Testing

/// Runs the built `aggregate` binary against the loopback fixture server with a TMDB source.
@Suite("aggregate with a TMDB source, end to end")
struct TMDBEndToEndTests {
    static let key = "e2eTMDBkey0f1e2d3c4b5a69788796a5b4c3d2e1f"

    /// A real recorded search answer (jdrouet/tmdb-api `assets/search-movie.json`, MIT), compacted.
    static let searchBody = """
        {"page":1,"results":[{"adult":false,"backdrop_path":"/2fxpVG5TxDmylZopKqwnMQXPYMP.jpg","genre_ids":[35],\
        "id":21778,"original_language":"fr","original_title":"RRRrrrr!!!","overview":"In 35,000 BC, the tribe of \
        the Dirty Hairs is at war against the tribe of the Clean Hairs.","popularity":25.016,\
        "poster_path":"/qsGU6myn85MfqpNAxzJtxJ3VgrM.jpg","release_date":"2004-01-28","title":"RRRrrrr!!!",\
        "video":false,"vote_average":6.331,"vote_count":1107}],"total_pages":1,"total_results":1}
        """

    @Test("--query searches a disabled movies source by name, prints JSON, and aggregate queries lists it")
    func searchThenListQueries() async throws {
        let server = try await FixtureServer.start()
        server.route("/3/search/movie", .json(Self.searchBody))
        let sandbox = try Sandbox(manifest: """
            {
              "version": 1,
              "sources": [
                { "id": "notes", "provider": "files", "options": { "paths": ["data/*.json"] } },
                { "id": "movies", "provider": "tmdb", "enabled": false,
                  "options": { "query": "Alien", "apiKey": "${TMDB_API_KEY}", "baseURL": "\(server.baseURL.absoluteString)" } }
              ]
            }
            """)
        defer { try? FileManager.default.removeItem(at: sandbox.root) }
        let environment = ["TMDB_API_KEY": Self.key, "AGGREGATE_HOME": sandbox.root.appendingPathComponent("home").path]

        let run = try await Aggregate.run(
            ["--manifest", sandbox.manifestPath, "--sources", "movies", "--query", "Inception", "-f", "json", "--verbose"],
            environment: environment)
        let request = server.requests.first
        await server.stop()

        #expect(run.status == 0, "\(run.stderr)")
        #expect(request?.query("query") == "Inception")
        #expect(request?.query("api_key") == Self.key)
        let item = try #require(try run.items().first)
        #expect(item["kind"] as? String == "movie")
        #expect(item["title"] as? String == "RRRrrrr!!!")
        #expect(item["subtitle"] as? String == "2004 · ★ 6.3 · Comedy")
        #expect(item["url"] as? String == "https://www.themoviedb.org/movie/21778")
        #expect(run.stderr.contains("api_key=***"))
        #expect(!(run.stdout + run.stderr).contains(Self.key))

        let queries = try await Aggregate.run(["queries", "--manifest", sandbox.manifestPath], environment: environment)
        #expect(queries.status == 0)
        #expect(queries.stdout == "SOURCE  QUERY\nmovies  Inception\n")
        let one = try await Aggregate.run(
            ["queries", "--manifest", sandbox.manifestPath, "--source", "movies"], environment: environment)
        #expect(one.stdout == "Inception\n")
        let wrong = try await Aggregate.run(
            ["queries", "--manifest", sandbox.manifestPath, "--source", "notes"], environment: environment)
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("notes (files) keeps no search queries; sources that do: movies"))
    }
}
