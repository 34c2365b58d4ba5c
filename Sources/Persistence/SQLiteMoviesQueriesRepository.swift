import Domain
import Foundation
import GRDB

/// The search queries one movies source ran successfully (`movies_query`), most recent first.
///
/// Queries are trimmed; two that differ only in letter case or surrounding spaces are one query (the latest
/// spelling is kept). At most `maxStored` are kept per source.
public struct SQLiteMoviesQueriesRepository: Sendable {
    public static let maxStored = 20

    private let database: AppDatabase
    private let sourceID: String

    public init(database: AppDatabase, sourceID: String) {
        self.database = database
        self.sourceID = sourceID
    }
}

extension SQLiteMoviesQueriesRepository: MoviesQueriesRepository {
    public func recentQueries(maxCount: Int) throws(SourceError) -> [String] {
        let limit = min(max(0, maxCount), Self.maxStored)
        guard limit > 0 else { return [] }
        return try database.read { db in
            try String.fetchAll(
                db, sql: "SELECT query FROM movies_query WHERE source_id = ? ORDER BY used_at DESC, rowid DESC LIMIT ?",
                arguments: [sourceID, limit])
        }
    }

    public func saveRecentQuery(_ query: String) throws(SourceError) {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        try database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO movies_query (source_id, query_key, query, used_at) VALUES (?, ?, ?, ?)",
                arguments: [sourceID, text.lowercased(), text, Date().timeIntervalSince1970])
            try db.execute(
                sql: """
                    DELETE FROM movies_query WHERE source_id = ? AND rowid NOT IN (
                        SELECT rowid FROM movies_query WHERE source_id = ? ORDER BY used_at DESC, rowid DESC LIMIT ?)
                    """,
                arguments: [sourceID, sourceID, Self.maxStored])
        }
    }
}
