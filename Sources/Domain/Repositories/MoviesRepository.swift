import Foundation

/// Pages of a movie listing.
public protocol MoviesRepository: Sendable {
    /// Page numbers start at 1.
    func moviesPage(
        _ query: MovieQuery, page: Int, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<MoviesPage, SourceError>) -> Void
    )
}

/// The search queries a user ran successfully, most recent first.
public protocol MoviesQueriesRepository: Sendable {
    /// At most `maxCount` queries, most recent first, each once.
    func recentQueries(maxCount: Int) throws(SourceError) -> [String]
    /// Remembers `query` as the most recent (a repeated query moves to the front).
    func saveRecentQuery(_ query: String) throws(SourceError)
}
