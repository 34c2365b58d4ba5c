import Domain
import Foundation

// MARK: - Data Transfer Object

/// One movie of a TMDB list. Real responses have `"release_date": ""` for unreleased or undated films,
/// `null` `poster_path`/`backdrop_path`, `"genre_ids": []`, and `vote_average` as a JSON integer (`6`) when
/// it is whole; `Double` decodes both number forms. Lists that are not of movies share the envelope: TV
/// results have `name`/`first_air_date` and no `title`, multi-search results say `media_type`.
struct MovieDTO: Decodable {
    let id: Int
    let mediaType: String?
    let title: String?
    let originalTitle: String?
    let overview: String?
    let releaseDate: String?
    let genreIDs: [Int]?
    let voteAverage: Double?
    let voteCount: Int?
    let popularity: Double?
    let posterPath: String?
    let backdropPath: String?
    let originalLanguage: String?

    enum CodingKeys: String, CodingKey {
        case id, title, overview, popularity
        case mediaType = "media_type"
        case originalTitle = "original_title"
        case releaseDate = "release_date"
        case genreIDs = "genre_ids"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
        case originalLanguage = "original_language"
    }
}

// MARK: - Mappings to Domain

extension MovieDTO {
    /// The public page of a movie, for people (`url` of the item).
    static let pageBaseURL = URL(string: "https://www.themoviedb.org/movie/")!

    /// The movie, or nil when this result is no movie: it has no title (a TV show or a person) or its
    /// `media_type` says something else. Every other field is absent when TMDB has no value for it (`""`,
    /// `null`, `[]`), as docs/PROVIDERS.md promises.
    ///
    /// - Parameter imageBaseURL: the image host and size (`https://image.tmdb.org/t/p/w500`) that the
    ///   relative `poster_path` is joined to.
    func toDomain(imageBaseURL: URL) -> Movie? {
        guard mediaType == nil || mediaType == "movie",
            let title = Self.nonEmpty(title) ?? Self.nonEmpty(originalTitle)
        else { return nil }
        return Movie(
            id: id,
            title: title,
            originalTitle: Self.nonEmpty(originalTitle),
            overview: Self.nonEmpty(overview),
            releaseDate: Self.nonEmpty(releaseDate).flatMap(ISO8601.date(from:)),
            genres: MovieGenres.names(of: genreIDs ?? []),
            voteAverage: voteAverage.flatMap { $0.isFinite ? $0 : nil },
            voteCount: voteCount,
            popularity: popularity.flatMap { $0.isFinite ? $0 : nil },
            posterURL: Self.nonEmpty(posterPath).flatMap { Self.imageURL(imageBaseURL, $0) },
            originalLanguage: Self.nonEmpty(originalLanguage),
            pageURL: Self.pageBaseURL.appendingPathComponent(String(id)))
    }

    /// `https://image.tmdb.org/t/p/w500` + `/qhb1….jpg`, with exactly one slash between them.
    static func imageURL(_ base: URL, _ path: String) -> URL? {
        var prefix = base.absoluteString
        while prefix.hasSuffix("/") { prefix.removeLast() }
        return URL(string: prefix + (path.hasPrefix("/") ? path : "/" + path))
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }
}
