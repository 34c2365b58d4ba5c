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
    func toDomain(imageBaseURL: URL) -> MoviesPage {
        let movies = results.compactMap { $0.toDomain(imageBaseURL: imageBaseURL) }
        return MoviesPage(
            page: page,
            totalPages: totalPages ?? page,
            totalResults: totalResults ?? results.count,
            movies: movies,
            notMovies: results.count - movies.count)
    }
}
