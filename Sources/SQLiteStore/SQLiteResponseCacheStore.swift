import Domain
import Foundation
import GRDB
import StoreSupport

/// The HTTP response cache in the store's `http_response` table.
public struct SQLiteResponseCacheStore: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }
}

extension SQLiteResponseCacheStore: ResponseCacheStore {
    public func response(forKey key: String) throws(SourceError) -> StoredResponse? {
        let row = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT status, headers, body, stored_at, expires_at FROM http_response WHERE key = ?",
                             arguments: [key])
        }
        guard let row else { return nil }
        let headers = StoreCoding.decodeHeaders(row["headers"])
        return StoredResponse(
            status: row["status"], headers: headers, body: row["body"] ?? Data(),
            storedAt: Date(timeIntervalSince1970: row["stored_at"]), expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
    }

    public func store(_ response: StoredResponse, forKey key: String, sourceID: String) throws(SourceError) {
        let headers = StoreCoding.encodeHeaders(response.headers)
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO http_response (key, source_id, status, headers, body, stored_at, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [key, sourceID, response.status, headers, response.body,
                            response.storedAt.timeIntervalSince1970, response.expiresAt.timeIntervalSince1970])
        }
    }

    public func refresh(key: String, storedAt: Date, expiresAt: Date) throws(SourceError) {
        try database.write { db in
            try db.execute(sql: "UPDATE http_response SET stored_at = ?, expires_at = ? WHERE key = ?",
                           arguments: [storedAt.timeIntervalSince1970, expiresAt.timeIntervalSince1970, key])
        }
    }

    public func removeResponse(forKey key: String) throws(SourceError) {
        try database.write { db in
            try db.execute(sql: "DELETE FROM http_response WHERE key = ?", arguments: [key])
        }
    }

    /// Every stored key of `sourceID` (for tests and diagnostics; keys hold no secrets).
    public func keys(sourceID: String) throws(SourceError) -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT key FROM http_response WHERE source_id = ? ORDER BY key", arguments: [sourceID])
        }
    }
}
