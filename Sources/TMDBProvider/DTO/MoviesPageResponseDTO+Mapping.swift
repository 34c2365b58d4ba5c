import Domain
import Foundation

// MARK: - Data Transfer Object

/// The paged envelope every TMDB movie list shares (`/3/search/movie`, `/3/movie/popular`, …,
/// `/3/trending/movie/week`): `{"page":1,"results":[…],"total_pages":42471,"total_results":849412}`.
/// `now_playing` adds `dates`, which is not needed and so not read.
struct MoviesPageResponseDTO: Decodable {
    let page: Int
    let results: [MovieDTO]
    let totalPages: Int?
    let totalResults: Int?

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages"
        case totalResults = "total_results"
    }
}

// MARK: - Mappings to Domain

extension MoviesPageResponseDTO {
    /// A missing `total_pages` means this page is the last one; a missing `total_results` counts what came.
    /// Results that are no movies (a TV or multi search answered instead) are left out and counted; a page
    /// with results of which none is a movie is a bad response, not an empty page.
    func toDomain(imageBaseURL: URL) -> Result<MoviesPage, SourceError> {
        let movies = results.compactMap { $0.toDomain(imageBaseURL: imageBaseURL) }
        if movies.isEmpty, !results.isEmpty {
            return .failure(SourceError(
                .badResponse,
                "none of the \(results.count) results is a movie (no title: TV shows or people, not a movie list)"))
        }
        return .success(MoviesPage(
            page: page,
            totalPages: totalPages ?? page,
            totalResults: totalResults ?? results.count,
            movies: movies,
            nonMovieCount: results.count - movies.count))
    }
}
