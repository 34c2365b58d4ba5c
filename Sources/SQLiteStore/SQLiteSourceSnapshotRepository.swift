import Domain
import Foundation
import GRDB
import StoreSupport

/// The last good copy of each source's items, in the store's `source_snapshot` table (items as JSON).
public struct SQLiteSourceSnapshotRepository: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }
}

extension SQLiteSourceSnapshotRepository: SourceSnapshotRepository {
    public func lastGood(of source: SourceIdentity, variant: String) throws(SourceError) -> SourceSnapshot? {
        let row = try database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT items, saved_at FROM source_snapshot WHERE source_id = ? AND fingerprint = ? AND variant = ?",
                arguments: [source.id, source.fingerprint, variant])
        }
        guard let row else { return nil }
        let items = try StoreCoding.decodeItems(row["items"], of: source.id)
        return SourceSnapshot(
            source: source, variant: variant, items: items,
            savedAt: Date(timeIntervalSince1970: row["saved_at"]))
    }

    public func saveLastGood(_ snapshot: SourceSnapshot) throws(SourceError) {
        let data = try StoreCoding.encodeItems(snapshot.items, of: snapshot.source.id)
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO source_snapshot (source_id, fingerprint, variant, items, saved_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [snapshot.source.id, snapshot.source.fingerprint, snapshot.variant, data, snapshot.savedAt.timeIntervalSince1970])
        }
    }
}
