import Foundation

/// Which list of movies to read.
public enum MovieListing: Sendable, Hashable {
    /// The movies matching `query`.
    case search(query: String)
    /// The service's popular movies.
    case popular
    /// The service's best-rated movies.
    case topRated
    /// Movies in cinemas now.
    case nowPlaying
    /// The service's trending movies.
    case trending
}

/// What a movies source asks its service for: which listing, and its filters.
public struct MovieQuery: Sendable, Hashable {
    /// Which list of movies.
    public var listing: MovieListing
    /// The language of titles and overviews (`en-US`), when not the service's default.
    public var language: String?
    /// The region releases are counted in (`US`), when not the service's default.
    public var region: String?
    /// Whether adult titles are listed.
    public var includeAdult: Bool
    /// Only movies released this year, when given.
    public var year: Int?

    /// A query; no filter unless given.
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
    /// A numeric id (TMDB).
    case number(Int)
    /// A text id (IMDb, OMDb).
    case text(String)

    /// `550`: a numeric id.
    public init(integerLiteral value: Int) { self = .number(value) }
    /// `"tt0137523"`: a text id.
    public init(stringLiteral value: String) { self = .text(value) }

    /// The id as text: the item's `id`.
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
    /// The movie's id on its service.
    public var id: MovieID
    /// The title in the query's language.
    public var title: String
    /// The title in the original language, if the service gives it.
    public var originalTitle: String?
    /// A short summary of the plot, if any.
    public var overview: String?
    /// Absent when the service has no date ("" in TMDB's responses).
    public var releaseDate: Date?
    /// Empty when the service lists none; the item then has no `genres` field.
    public var genres: [String]
    /// The average rating, on the service's scale, if rated.
    public var voteAverage: Double?
    /// How many ratings the average is of.
    public var voteCount: Int?
    /// The service's popularity score, if it has one.
    public var popularity: Double?
    /// The poster image, if any.
    public var posterURL: URL?
    /// The original language's code (`en`), if given.
    public var originalLanguage: String?
    /// The movie's page on the service, for people.
    public var pageURL: URL?

    /// A movie; optional parts absent unless given.
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
    /// This page's number, from 1.
    public var page: Int
    /// How many pages the listing has.
    public var totalPages: Int
    /// How many results the listing has, over all pages.
    public var totalResults: Int
    /// The page's movies, in the service's order.
    public var movies: [Movie]
    /// Results of the page that were no movies (TV shows, people) and were left out; the source warns.
    public var nonMovieCount: Int

    /// A page; no result left out unless said.
    public init(page: Int, totalPages: Int, totalResults: Int, movies: [Movie], nonMovieCount: Int = 0) {
        self.page = page
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.movies = movies
        self.nonMovieCount = nonMovieCount
    }
}
