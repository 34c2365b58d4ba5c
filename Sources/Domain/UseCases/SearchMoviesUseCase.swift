import Foundation

/// Pages 1…N of a movie listing: page 1 first (it tells how many pages exist), then the rest concurrently,
/// never past the last page; movies kept in page order with repeated ids dropped.
public struct SearchMoviesUseCase: ItemSource {
    private let repository: any MoviesRepository
    private let queriesRepository: (any MoviesQueriesRepository)?
    private let query: MovieQuery
    private let pages: Int

    /// Reads `pages` pages (at least 1) of `query`'s listing through `repository`, remembering a successful search
    /// in `queriesRepository` when there is one.
    public init(
        repository: any MoviesRepository, queriesRepository: (any MoviesQueriesRepository)? = nil,
        query: MovieQuery, pages: Int
    ) {
        self.repository = repository
        self.queriesRepository = queriesRepository
        self.query = query
        self.pages = max(1, pages)
    }

    /// Reads page 1, then the others at most `context.concurrency` at once, emits the movies as items and finishes
    /// `receiver` once.
    public func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let (repository, query, pages, queries) = (self.repository, self.query, self.pages, self.queriesRepository)
        repository.moviesPage(query, page: 1, cancellation: context.cancellation) { first in
            let firstPage: MoviesPage
            switch first {
            case .success(let page): firstPage = page
            case .failure(let error): return receiver.fail(error)
            }
            let lastPage = min(pages, max(1, firstPage.totalPages))
            let rest = Array(2..<(lastPage + 1))
            OrderedFanOut.run(
                count: rest.count, limit: context.concurrency, cancellation: context.cancellation,
                notStarted: { Result<MoviesPage, SourceError>.failure(SourceError(.timeout, "not started")) },
                job: { index, done in
                    repository.moviesPage(query, page: rest[index], cancellation: context.cancellation, completion: done)
                },
                completion: { results in
                    var seen = Set<MovieID>()
                    func unique(_ page: MoviesPage) -> [Item] {
                        page.movies.filter { seen.insert($0.id).inserted }.map { $0.toItem() }
                    }
                    var labelled = [(label: "page 1", result: Result<[Item], SourceError>.success(unique(firstPage)))]
                    for (page, result) in zip(rest, results) {
                        labelled.append((label: "page \(page)", result: result.map(unique)))
                    }
                    for page in [firstPage] + results.compactMap({ try? $0.get() }) where page.nonMovieCount > 0 {
                        let count = page.movies.count + page.nonMovieCount
                        receiver.warn("page \(page.page): \(SourceError.Kind.badResponse.rawValue): \(page.nonMovieCount) of "
                            + "\(count) results are not movies (no title: TV shows or people) and were left out")
                    }
                    if case .search(let text) = query.listing, let queries {
                        do throws(SourceError) { try queries.saveRecentQuery(text) } catch { receiver.warn("recent queries: \(error.message)") }
                    }
                    receiver.finish(collecting: labelled)
                }
            )
        }
    }
}

extension Movie {
    /// Field keys are part of the output contract (docs/PROVIDERS.md, "movie" items).
    public func toItem() -> Item {
        var fields: JSONObject = ["movieId": id.jsonValue]
        if !genres.isEmpty { fields["genres"] = .array(genres.map(JSONValue.string)) }
        fields["originalTitle"] = originalTitle.map(JSONValue.string)
        fields["overview"] = overview.map(JSONValue.string)
        fields["voteAverage"] = voteAverage.map(JSONValue.double)
        fields["voteCount"] = voteCount.map(JSONValue.int)
        fields["popularity"] = popularity.map(JSONValue.double)
        fields["posterURL"] = posterURL.map { .string($0.absoluteString) }
        fields["originalLanguage"] = originalLanguage.map(JSONValue.string)
        var subtitle: [String] = []
        if let releaseDate { subtitle.append(String(ISO8601.string(from: releaseDate).prefix(4))) }
        if let voteAverage { subtitle.append("★ \(JSONValue.double((voteAverage * 10).rounded() / 10).displayText)") }
        if !genres.isEmpty { subtitle.append(genres.joined(separator: ", ")) }
        return Item(
            kind: .movie, id: id.description, title: title,
            subtitle: subtitle.isEmpty ? nil : subtitle.joined(separator: " · "),
            url: pageURL, date: releaseDate, fields: fields
        )
    }
}
