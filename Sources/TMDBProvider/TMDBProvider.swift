import Domain
import Foundation
import HTTPClient
import ProviderKit

/// `"provider": "tmdb"`: movies from The Movie Database's API v3, searched or listed, several pages at once.
///
///     { "id": "movies", "provider": "tmdb",
///       "options": { "query": "Inception", "pages": 3, "language": "en-US", "apiKey": "${TMDB_API_KEY}" } }
///
/// Page 1 comes first (it says how many pages exist), then pages 2…`pages` concurrently, never past
/// `total_pages`; movies stay in page order with repeated ids dropped (`SearchMoviesUseCase`). A failed later
/// page is a warning and the source keeps the others. `--query` replaces the query of search-mode sources for
/// one run (list modes ignore it). Every successful search query is remembered through the run's
/// `MoviesQueriesRepository` (`aggregate queries`).
///
/// Items: `kind: "movie"`, `id` = TMDB's movie id, `title`, `subtitle` like `2010 · ★ 8.4 · Action, Science
/// Fiction`, `url` = the movie's page on themoviedb.org, `date` = release date (absent when TMDB has none).
/// `fields` keys (absent when TMDB omits them): `movieId`, `originalTitle`, `overview`, `genres` (names),
/// `voteAverage`, `voteCount`, `popularity`, `posterURL`, `originalLanguage`.
public struct TMDBProvider: Provider {
    public static let defaultBaseURL = URL(string: "https://api.themoviedb.org")!
    public static let defaultImageBaseURL = URL(string: "https://image.tmdb.org/t/p/w500")!
    public static let maxPages = 20

    public init() {}

    public var name: String { "tmdb" }

    public var summary: String { "Movies from TMDB: search or popular/top rated/now playing/trending lists (key required)" }

    public var acceptsQuery: Bool { true }

    public var options: [OptionSpec] {
        [
            OptionSpec("mode", TMDBMode.allCases.map(\.rawValue).joined(separator: "|"), default: TMDBMode.search.rawValue,
                       help: "Search by title, or one of TMDB's lists (trending = this week's)."),
            OptionSpec("query", "string",
                       help: "What to search for (search mode; required there unless --query gives it)."),
            OptionSpec("pages", "integer 1–\(Self.maxPages)", default: "1",
                       identity: .tuning, help: "Pages of 20 movies to read; never more than TMDB has."),
            OptionSpec("language", "string (en-US)", help: "Language of titles and overviews (ISO 639-1, optional region)."),
            OptionSpec("region", "string (US)",
                       help: "ISO 3166-1 country for release dates and regional lists (not for trending)."),
            OptionSpec("includeAdult", "boolean", default: "false", help: "Include adult titles (search mode)."),
            OptionSpec("year", "integer", help: "Only movies released in this year (search mode)."),
            OptionSpec("apiKey", "string", secret: true,
                       help: "TMDB v3 API key, normally \"${TMDB_API_KEY}\"; or give accessToken instead. Never printed."),
            OptionSpec("accessToken", "string", secret: true,
                       help: "TMDB v4 read access token, sent as Authorization: Bearer; instead of apiKey. Never printed."),
            OptionSpec("imageBaseURL", "string (URL)", default: Self.defaultImageBaseURL.absoluteString,
                       help: "Prefix of poster URLs (image host and size)."),
        ] + HTTPSourceOptions.specs(defaultBaseURL: Self.defaultBaseURL)
    }

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let mode = reader.value("mode", as: TMDBMode.self) ?? .search
        let query = readQuery(reader, mode: mode, override: configuration.query)
        let pages = reader.value("pages", as: Int.self) ?? 1
        if !(1...Self.maxPages).contains(pages) {
            reader.problem("pages", "must be between 1 and \(Self.maxPages), found \(pages)")
        }
        let language = reader.value("language", as: String.self)
        if let language, !Self.isLanguage(language) {
            reader.problem("language", "expected an ISO 639-1 code with an optional region, like \"en\" or \"en-US\", found '\(language)'")
        }
        let region = reader.value("region", as: String.self)
        if let region, !Self.isRegion(region) {
            reader.problem("region", "expected a two-letter ISO 3166-1 country code like \"US\", found '\(region)'")
        }
        let includeAdult = reader.value("includeAdult", as: Bool.self) ?? false
        let year = reader.value("year", as: Int.self)
        if let year, !(1800...9999).contains(year) {
            reader.problem("year", "expected a four-digit year, found \(year)")
        }
        for key in ["includeAdult", "year"] where mode != .search && reader.has(key) {
            reader.problem(key, "applies only to mode search; this source lists \(mode.rawValue)")
        }
        if mode == .trending && reader.has("region") {
            reader.problem("region", "does not apply to mode trending")
        }
        let credential = readCredential(reader)
        let imageBaseURL = readImageBaseURL(reader)
        let http = HTTPSourceOptions.read(
            reader, defaultBaseURL: Self.defaultBaseURL,
            credentialOption: reader.has("accessToken") ? "accessToken" : "apiKey", hasCredential: true)
        try reader.finish()
        guard let credential else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }

        let client = configuration.httpClient(http.clientConfiguration(for: configuration))
        let repository = TMDBMoviesRepository(
            client: client, baseURL: http.baseURL, imageBaseURL: imageBaseURL, credential: credential)
        let movieQuery = MovieQuery(
            listing: mode.listing(query: query ?? ""), language: language, region: region?.uppercased(),
            includeAdult: includeAdult, year: year)
        return SearchMoviesUseCase(
            repository: repository, queriesRepository: mode == .search ? configuration.services.moviesQueries : nil,
            query: movieQuery, pages: pages)
    }

    /// `--query` wins over `options.query`. A search source with neither is valid in the manifest (the query
    /// may come from the command line) and fails when it runs, saying what to set.
    private func readQuery(_ reader: OptionsReader, mode: TMDBMode, override: String?) -> String? {
        let option = reader.value("query", as: String.self)
        if let option, option.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            reader.problem("query", "is empty; give the text to search for, or leave it out and pass --query")
        }
        if option != nil && mode != .search {
            reader.problem("query", "applies only to mode search; this source lists \(mode.rawValue)")
        }
        let query = override ?? option
        return query?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Exactly one of `apiKey` and `accessToken`. Problems never quote the value.
    private func readCredential(_ reader: OptionsReader) -> TMDBCredential? {
        let apiKey = reader.value("apiKey", as: String.self)
        let token = reader.value("accessToken", as: String.self)
        for (key, value) in [("apiKey", apiKey), ("accessToken", token)] {
            if let value, value.trimmingCharacters(in: .whitespaces).isEmpty {
                reader.problem(key, "is empty; set it, normally to \"${TMDB_API_KEY}\" or \"${TMDB_ACCESS_TOKEN}\"")
            }
        }
        switch (reader.has("apiKey"), reader.has("accessToken")) {
        case (true, true):
            reader.problem("accessToken", "give either apiKey or accessToken, not both")
            return nil
        case (false, false):
            reader.problem("apiKey", "required: a TMDB v3 API key (normally \"${TMDB_API_KEY}\"), or accessToken instead")
            return nil
        default:
            if let apiKey, !apiKey.trimmingCharacters(in: .whitespaces).isEmpty { return .apiKey(apiKey) }
            if let token, !token.trimmingCharacters(in: .whitespaces).isEmpty { return .accessToken(token) }
            return nil
        }
    }

    private func readImageBaseURL(_ reader: OptionsReader) -> URL {
        guard let text = reader.value("imageBaseURL", as: String.self) else { return Self.defaultImageBaseURL }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false, url.query == nil else {
            reader.problem("imageBaseURL", "expected an http:// or https:// URL with a host and no query, found '\(text)'")
            return Self.defaultImageBaseURL
        }
        return url
    }

    static func isLanguage(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, language.count == 2, language.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return false
        }
        return parts.count == 1 || (parts.count == 2 && isRegion(String(parts[1])))
    }

    static func isRegion(_ text: String) -> Bool {
        text.count == 2 && text.allSatisfy { $0.isASCII && $0.isLetter }
    }
}
