import Domain
import Foundation
import PostgresNIO
import StoreSupport

/// The last good copy of each source's items, in the shared store's `source_snapshot` table (items as JSON,
/// the bytes SQLite keeps).
public struct PostgresSourceSnapshotRepository: Sendable {
    private let database: PostgresStoreDatabase

    public init(database: PostgresStoreDatabase) {
        self.database = database
    }
}

extension PostgresSourceSnapshotRepository: SourceSnapshotRepository {
    public func lastGood(of source: SourceIdentity, variant: String) throws(SourceError) -> SourceSnapshot? {
        let row = try database.withSession { session in
            try await session.rows("""
                SELECT items, saved_at FROM source_snapshot
                WHERE source_id = \(source.id) AND fingerprint = \(source.fingerprint) AND variant = \(variant)
                """).first.map { (try $0[0].decode(Data.self), try $0[1].decode(Double.self)) }
        }
        guard let (data, savedAt) = row else { return nil }
        return SourceSnapshot(
            source: source, variant: variant, items: try StoreCoding.decodeItems(data, of: source.id),
            savedAt: Date(timeIntervalSince1970: savedAt))
    }

    public func saveLastGood(_ snapshot: SourceSnapshot) throws(SourceError) {
        let data = try StoreCoding.encodeItems(snapshot.items, of: snapshot.source.id)
        try database.withSession { session in
            try await session.execute("""
                INSERT INTO source_snapshot (source_id, fingerprint, variant, items, saved_at)
                VALUES (\(snapshot.source.id), \(snapshot.source.fingerprint), \(snapshot.variant), \(data),
                        \(snapshot.savedAt.timeIntervalSince1970))
                ON CONFLICT (source_id, fingerprint, variant) DO UPDATE SET items = EXCLUDED.items, saved_at = EXCLUDED.saved_at
                """)
        }
    }
}
