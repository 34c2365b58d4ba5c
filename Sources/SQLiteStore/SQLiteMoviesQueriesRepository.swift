import Domain
import Foundation
import GRDB
import StoreSupport

/// The search queries one movies source ran successfully (`movies_query`), most recent first.
///
/// Queries are trimmed; two that differ only in letter case or surrounding spaces are one query (the latest
/// spelling is kept). At most `maxStored` are kept per source.
public struct SQLiteMoviesQueriesRepository: Sendable {
    public static let maxStored = StoreCoding.maxStoredQueries

    private let database: AppDatabase
    private let source: SourceIdentity

    public init(database: AppDatabase, source: SourceIdentity) {
        self.database = database
        self.source = source
    }
}

extension SQLiteMoviesQueriesRepository {
    /// The recent queries of every configuration of source `id`, for when its identity cannot be known (its
    /// `${VAR}`s are not set where `aggregate queries` runs).
    public static func recentQueries(
        database: AppDatabase, anyConfigurationOf id: String, maxCount: Int
    ) throws(SourceError) -> [String] {
        let limit = min(max(0, maxCount), Self.maxStored)
        guard limit > 0 else { return [] }
        return try database.read { db in
            try String.fetchAll(
                db, sql: "SELECT query FROM movies_query WHERE source_id = ? ORDER BY used_at DESC, rowid DESC LIMIT ?",
                arguments: [id, limit])
        }
    }
}

extension SQLiteMoviesQueriesRepository: MoviesQueriesRepository {
    public func recentQueries(maxCount: Int) throws(SourceError) -> [String] {
        let limit = min(max(0, maxCount), Self.maxStored)
        guard limit > 0 else { return [] }
        // Rows from before fingerprints (empty) count until the source's next search adopts them.
        return try database.read { db in
            try String.fetchAll(
                db, sql: """
                    SELECT query FROM movies_query WHERE source_id = ? AND fingerprint IN (?, '')
                    ORDER BY used_at DESC, rowid DESC LIMIT ?
                    """,
                arguments: [source.id, source.fingerprint, limit])
        }
    }

    public func saveRecentQuery(_ query: String) throws(SourceError) {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        try database.write { db in
            try AppDatabase.adoptLegacy("movies_query", for: source, in: db)
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO movies_query (source_id, fingerprint, query_key, query, used_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [source.id, source.fingerprint, text.lowercased(), text, Date().timeIntervalSince1970])
            try db.execute(
                sql: """
                    DELETE FROM movies_query WHERE source_id = ? AND fingerprint = ? AND rowid NOT IN (
                        SELECT rowid FROM movies_query WHERE source_id = ? AND fingerprint = ?
                        ORDER BY used_at DESC, rowid DESC LIMIT ?)
                    """,
                arguments: [source.id, source.fingerprint, source.id, source.fingerprint, Self.maxStored])
        }
    }
}
