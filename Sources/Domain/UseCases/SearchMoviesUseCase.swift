import Foundation

/// Pages 1…N of a movie listing: page 1 first (it tells how many pages exist), then the rest concurrently,
/// never past the last page; movies kept in page order with repeated ids dropped.
public struct SearchMoviesUseCase: ItemSource {
    private let repository: any MoviesRepository
    private let queriesRepository: (any MoviesQueriesRepository)?
    private let query: MovieQuery
    private let pages: Int

    public init(
        repository: any MoviesRepository, queriesRepository: (any MoviesQueriesRepository)? = nil,
        query: MovieQuery, pages: Int
    ) {
        self.repository = repository
        self.queriesRepository = queriesRepository
        self.query = query
        self.pages = max(1, pages)
    }

    public func load(_ context: LoadContext, into sink: ItemSink) {
        let (repository, query, pages, queries) = (self.repository, self.query, self.pages, self.queriesRepository)
        repository.moviesPage(query, page: 1, cancellation: context.cancellation) { first in
            let firstPage: MoviesPage
            switch first {
            case .success(let page): firstPage = page
            case .failure(let error): return sink.fail(error)
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
                    var seen = Set<Int>()
                    func unique(_ page: MoviesPage) -> [Item] {
                        page.movies.filter { seen.insert($0.id).inserted }.map { $0.toItem() }
                    }
                    var labelled = [(label: "page 1", result: Result<[Item], SourceError>.success(unique(firstPage)))]
                    for (page, result) in zip(rest, results) {
                        labelled.append((label: "page \(page)", result: result.map(unique)))
                    }
                    // Results without a movie title are not movies (a TV search's body): said, never shown as movies.
                    let pagesRead = [firstPage] + results.compactMap { try? $0.get() }
                    let notMovies = pagesRead.reduce(0) { $0 + $1.notMovies }
                    if notMovies > 0 {
                        if pagesRead.allSatisfy(\.movies.isEmpty) {
                            return sink.fail(SourceError(.badResponse, Self.notMoviesMessage(notMovies, of: notMovies)))
                        }
                        let total = notMovies + pagesRead.reduce(0) { $0 + $1.movies.count }
                        sink.warn("badResponse: " + Self.notMoviesMessage(notMovies, of: total))
                    }
                    if case .search(let text) = query.listing, let queries {
                        do throws(SourceError) { try queries.saveRecentQuery(text) } catch { sink.warn("recent queries: \(error.message)") }
                    }
                    sink.finish(collecting: labelled)
                }
            )
        }
    }

    static func notMoviesMessage(_ count: Int, of total: Int) -> String {
        count == total
            ? "none of the \(total) results is a movie (no title): is this a movie listing?"
            : "\(count) of \(total) results \(count == 1 ? "is" : "are") not a movie (no title) and \(count == 1 ? "was" : "were") left out"
    }
}

extension Movie {
    /// Field keys are part of the output contract (README, "movie" items).
    public func toItem() -> Item {
        var fields: [String: JSONValue] = ["movieId": .int(id)]
        fields["genres"] = genres.map { JSONValue.array($0.map(JSONValue.string)) }
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
        if let genres, !genres.isEmpty { subtitle.append(genres.joined(separator: ", ")) }
        return Item(
            kind: .movie, id: String(id), title: title,
            subtitle: subtitle.isEmpty ? nil : subtitle.joined(separator: " · "),
            url: pageURL, date: releaseDate, fields: fields
        )
    }
}
