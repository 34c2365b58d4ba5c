import Domain
import Foundation
import PostgresNIO
import StoreSupport

/// The search queries one movies source ran successfully (`movies_query`), most recent first, with the
/// SQLite store's rules (trimmed, one per spelling ignoring case, at most `maxStored`).
public struct PostgresMoviesQueriesRepository: Sendable {
    public static let maxStored = StoreCoding.maxStoredQueries

    private let database: PostgresStoreDatabase
    private let source: SourceIdentity

    public init(database: PostgresStoreDatabase, source: SourceIdentity) {
        self.database = database
        self.source = source
    }

    /// The recent queries of every configuration of source `id` (its identity cannot be known).
    public static func recentQueries(
        database: PostgresStoreDatabase, anyConfigurationOf id: String, maxCount: Int
    ) throws(SourceError) -> [String] {
        let limit = min(max(0, maxCount), Self.maxStored)
        guard limit > 0 else { return [] }
        return try database.withSession { session in
            try await session.rows("""
                SELECT query FROM movies_query WHERE source_id = \(id) ORDER BY used_at DESC, seq DESC LIMIT \(limit)
                """).map { try $0[0].decode(String.self) }
        }
    }
}

extension PostgresMoviesQueriesRepository: MoviesQueriesRepository {
    public func recentQueries(maxCount: Int) throws(SourceError) -> [String] {
        let limit = min(max(0, maxCount), Self.maxStored)
        guard limit > 0 else { return [] }
        return try database.withSession { session in
            try await session.rows("""
                SELECT query FROM movies_query WHERE source_id = \(source.id) AND fingerprint = \(source.fingerprint)
                ORDER BY used_at DESC, seq DESC LIMIT \(limit)
                """).map { try $0[0].decode(String.self) }
        }
    }

    public func saveRecentQuery(_ query: String) throws(SourceError) {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        try database.transaction { session in
            try await session.execute("""
                INSERT INTO movies_query (source_id, fingerprint, query_key, query, used_at)
                VALUES (\(source.id), \(source.fingerprint), \(text.lowercased()), \(text), \(Date().timeIntervalSince1970))
                ON CONFLICT (source_id, fingerprint, query_key) DO UPDATE SET query = EXCLUDED.query,
                    used_at = EXCLUDED.used_at, seq = nextval(pg_get_serial_sequence('movies_query', 'seq'))
                """)
            try await session.execute("""
                DELETE FROM movies_query WHERE source_id = \(source.id) AND fingerprint = \(source.fingerprint)
                AND seq NOT IN (SELECT seq FROM movies_query WHERE source_id = \(source.id)
                    AND fingerprint = \(source.fingerprint) ORDER BY used_at DESC, seq DESC LIMIT \(Self.maxStored))
                """)
        }
    }
}
