import Domain
import Foundation

/// One source's recent search queries, kept in the shared `RecentQueriesFile`.
///
/// The Domain protocol knows no sources, so the composition root makes one repository per source id; the
/// file keeps the lists apart.
public struct JSONFileMoviesQueriesRepository {
    private let file: RecentQueriesFile
    private let sourceID: String

    public init(file: RecentQueriesFile, sourceID: String) {
        self.file = file
        self.sourceID = sourceID
    }
}

extension JSONFileMoviesQueriesRepository: MoviesQueriesRepository {
    public func recentQueries(maxCount: Int) throws(SourceError) -> [String] {
        Array(try file.queries(sourceID: sourceID).prefix(max(0, maxCount)))
    }

    public func saveRecentQuery(_ query: String) throws(SourceError) {
        try file.save(query, sourceID: sourceID)
    }
}
