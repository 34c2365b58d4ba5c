import Domain
import Foundation
import Logging
import ProviderKit
import ProviderTesting
import Synchronization
import TMDBProvider

let apiKey = "tmdbKEY0a1b2c3d4e5f60718293a4b5c6d7e8f9"
let accessToken = "eyJhbGciOiJIUzI1NiJ9.tmdbTOKEN.c2VjcmV0LXNpZ25hdHVyZQ"
let searchPath = "/3/search/movie"
let popularPath = "/3/movie/popular"

enum Fixture: String {
    case search = "jdrouet_search-movie.json"
    case popular = "jdrouet_movie-popular.json"
    case topRated = "jdrouet_movie-top-rated.json"
    case invalidKey = "jdrouet_invalid-api-key.json"
    case notFound = "jdrouet_resource-not-found.json"
    case validationError = "jdrouet_validation-error.json"
    case tvSearch = "jdrouet_search-tv.json"
    case multiSearch = "jdrouet_search-multi.json"

    var url: URL {
        get throws {
            guard let url = Bundle.module.url(forResource: "Fixtures/\(rawValue)", withExtension: nil) else {
                throw CocoaError(.fileNoSuchFile)
            }
            return url
        }
    }

    var data: Data { get throws { try Data(contentsOf: url) } }

    func response(status: Int = 200) throws -> FixtureResponse {
        try .file(url, status: status)
    }

    /// The recorded ids of the movies, in order.
    var ids: [Int] {
        get throws { try results().compactMap { $0["id"] as? Int } }
    }

    func results() throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["results"] as? [[String: Any]] ?? []
    }

    /// This recording served as page `page` of `totalPages`: only the envelope's two numbers are rewritten.
    func page(_ page: Int, of totalPages: Int) throws -> FixtureResponse {
        try edited { object in
            object["page"] = page
            object["total_pages"] = totalPages
        }
    }

    /// The recording with its JSON object changed in memory (for quirks no recording happens to contain).
    func edited(_ change: (inout [String: Any]) -> Void) throws -> FixtureResponse {
        var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        change(&object)
        let body = try JSONSerialization.data(withJSONObject: object)
        return FixtureResponse(status: 200, headers: [("Content-Type", "application/json;charset=utf-8")], body: body)
    }
}

let silentLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

/// Builds the source as `aggregate` would from a manifest entry pointing at the loopback server.
func makeSource(
    server: FixtureServer, options extra: JSONObject = [:], query: String? = nil, concurrency: Int = 4,
    queries: (any MoviesQueriesRepository)? = nil, logger: Logger = silentLogger
) throws(ManifestError) -> any ItemSource {
    var options: JSONObject = ["apiKey": .string(apiKey), "baseURL": .string(server.baseURL.absoluteString)]
    options.merge(extra) { $1 }
    var configuration = SourceConfiguration.testing(
        id: "movies", options: .object(options), concurrency: concurrency, query: query, logger: logger)
    configuration.services.moviesQueries = queries
    return try TMDBProvider().makeSource(configuration)
}

func run(_ source: any ItemSource, concurrency: Int = 4) async -> SourceReport {
    await SourceRunner.run(source, id: "movies", provider: "tmdb", concurrency: concurrency)
}

/// Recent queries in memory, for tests that check what the provider saves.
final class InMemoryQueries: MoviesQueriesRepository {
    private let saved = Mutex<[String]>([])

    func recentQueries(maxCount: Int) throws(SourceError) -> [String] {
        saved.withLock { Array($0.prefix(maxCount)) }
    }

    func saveRecentQuery(_ query: String) throws(SourceError) {
        saved.withLock { $0.insert(query, at: 0) }
    }
}
