import Foundation

/// Which list of movies to read.
public enum MovieListing: Sendable, Hashable {
    case search(query: String)
    case popular
    case topRated
    case nowPlaying
    case trending
}

public struct MovieQuery: Sendable, Hashable {
    public var listing: MovieListing
    public var language: String?
    public var region: String?
    public var includeAdult: Bool
    public var year: Int?

    public init(
        listing: MovieListing, language: String? = nil, region: String? = nil, includeAdult: Bool = false,
        year: Int? = nil
    ) {
        self.listing = listing
        self.language = language
        self.region = region
        self.includeAdult = includeAdult
        self.year = year
    }
}

/// A movie's identity on the service that lists it, in the service's own form: TMDB's numbers (`550`),
/// IMDb/OMDb's text (`"tt0137523"`). A movie item's `id` is its text; `fields.movieId` keeps the form (a JSON
/// number or a string), so scripts reading TMDB's numbers are unaffected by services with text ids.
public enum MovieID: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    case number(Int)
    case text(String)

    public init(integerLiteral value: Int) { self = .number(value) }
    public init(stringLiteral value: String) { self = .text(value) }

    public var description: String {
        switch self {
        case .number(let number): String(number)
        case .text(let text): text
        }
    }

    /// `fields.movieId`.
    public var jsonValue: JSONValue {
        switch self {
        case .number(let number): .int(number)
        case .text(let text): .string(text)
        }
    }
}

/// A movie.
public struct Movie: Sendable, Hashable {
    public var id: MovieID
    public var title: String
    public var originalTitle: String?
    public var overview: String?
    /// Absent when the service has no date ("" in TMDB's responses).
    public var releaseDate: Date?
    /// Empty when the service lists none; the item then has no `genres` field.
    public var genres: [String]
    public var voteAverage: Double?
    public var voteCount: Int?
    public var popularity: Double?
    public var posterURL: URL?
    public var originalLanguage: String?
    /// The movie's page on the service, for people.
    public var pageURL: URL?

    public init(
        id: MovieID, title: String, originalTitle: String? = nil, overview: String? = nil, releaseDate: Date? = nil,
        genres: [String] = [], voteAverage: Double? = nil, voteCount: Int? = nil, popularity: Double? = nil,
        posterURL: URL? = nil, originalLanguage: String? = nil, pageURL: URL? = nil
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.overview = overview
        self.releaseDate = releaseDate
        self.genres = genres
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.popularity = popularity
        self.posterURL = posterURL
        self.originalLanguage = originalLanguage
        self.pageURL = pageURL
    }

    /// A service with numeric ids (TMDB), as most providers (and the scaffold's template) build movies.
    public init(
        id: Int, title: String, originalTitle: String? = nil, overview: String? = nil, releaseDate: Date? = nil,
        genres: [String] = [], voteAverage: Double? = nil, voteCount: Int? = nil, popularity: Double? = nil,
        posterURL: URL? = nil, originalLanguage: String? = nil, pageURL: URL? = nil
    ) {
        self.init(
            id: .number(id), title: title, originalTitle: originalTitle, overview: overview, releaseDate: releaseDate,
            genres: genres, voteAverage: voteAverage, voteCount: voteCount, popularity: popularity,
            posterURL: posterURL, originalLanguage: originalLanguage, pageURL: pageURL)
    }
}

/// One page of a movie listing.
public struct MoviesPage: Sendable, Hashable {
    public var page: Int
    public var totalPages: Int
    public var totalResults: Int
    public var movies: [Movie]
    /// Results of the page that were no movies (TV shows, people) and were left out; the source warns.
    public var nonMovieCount: Int

    public init(page: Int, totalPages: Int, totalResults: Int, movies: [Movie], nonMovieCount: Int = 0) {
        self.page = page
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.movies = movies
        self.nonMovieCount = nonMovieCount
    }
}
