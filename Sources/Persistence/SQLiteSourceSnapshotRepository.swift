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
    public func lastGood(sourceID: String, variant: String) throws(SourceError) -> SourceSnapshot? {
        let row = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT items, saved_at FROM source_snapshot WHERE source_id = ? AND variant = ?",
                             arguments: [sourceID, variant])
        }
        guard let row else { return nil }
        let data: Data = row["items"]
        let items: [StoredItemDTO]
        do {
            items = try JSONDecoder().decode([StoredItemDTO].self, from: data)
        } catch {
            throw SourceError(.io, "the last good copy of \(sourceID) is unreadable")
        }
        return SourceSnapshot(
            sourceID: sourceID, variant: variant, items: items.map { $0.toDomain() },
            savedAt: Date(timeIntervalSince1970: row["saved_at"]))
    }

    public func saveLastGood(_ snapshot: SourceSnapshot) throws(SourceError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(snapshot.items.map(StoredItemDTO.init))
        } catch {
            throw SourceError(.io, "the items of \(snapshot.sourceID) could not be encoded for the store")
        }
        try database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO source_snapshot (source_id, variant, items, saved_at) VALUES (?, ?, ?, ?)",
                arguments: [snapshot.sourceID, snapshot.variant, data, snapshot.savedAt.timeIntervalSince1970])
        }
    }
}
