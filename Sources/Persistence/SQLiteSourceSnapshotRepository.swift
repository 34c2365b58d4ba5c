import Domain
import Foundation
import GRDB

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
        let data: Data = row["items"]
        let items: [StoredItemDTO]
        do {
            items = try JSONDecoder().decode([StoredItemDTO].self, from: data)
        } catch {
            throw SourceError(.io, "the last good copy of \(source.id) is unreadable")
        }
        return SourceSnapshot(
            source: source, variant: variant, items: items.map { $0.toDomain() },
            savedAt: Date(timeIntervalSince1970: row["saved_at"]))
    }

    public func saveLastGood(_ snapshot: SourceSnapshot) throws(SourceError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(snapshot.items.map(StoredItemDTO.init))
        } catch {
            throw SourceError(.io, "the items of \(snapshot.source.id) could not be encoded for the store")
        }
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
