import Domain
import Foundation
import PostgresNIO

/// The item history (`seen_item`) behind `--new`, shared by every process: an id is inserted once
/// (`ON CONFLICT DO NOTHING … RETURNING`), so of several processes recording the same new item at once exactly
/// one is told it is new. That is what makes `--new` announce each item once across machines. The items themselves
/// go into the archive in the same transaction (`PostgresArchiveWriter`).
public struct PostgresSeenItemsRepository: Sendable {
    private let database: PostgresStoreDatabase

    public init(database: PostgresStoreDatabase) {
        self.database = database
    }
}

extension PostgresSeenItemsRepository: SeenItemsRepository {
    public func recordSeen(by source: SourceIdentity, items: [Item], at date: Date) throws(SourceError) -> SeenItems {
        let itemIDs = items.map(\.id)
        return try database.transaction { session in
            try await PostgresArchiveWriter.archive([SeenBatch(source: source, items: items)], at: date, in: session)
            let hasHistory = try await session.rows("""
                SELECT EXISTS (SELECT 1 FROM seen_item WHERE source_id = \(source.id) AND fingerprint = \(source.fingerprint))
                """).first?[0].decode(Bool.self) ?? false
            let unseen = try await session.rows("""
                INSERT INTO seen_item (source_id, fingerprint, item_id, first_seen_at)
                SELECT DISTINCT \(source.id), \(source.fingerprint), id, \(date.timeIntervalSince1970)::double precision
                FROM unnest(\(itemIDs)::text[]) AS id
                ON CONFLICT DO NOTHING RETURNING item_id
                """).map { try $0[0].decode(String.self) }
            return SeenItems(unseen: Set(unseen), isFirstRun: !hasHistory)
        }
    }

    public func markSeen(_ batches: [SeenBatch], at date: Date) throws(SourceError) {
        // One statement for every source of the batch: its columns as parallel arrays, a row per id.
        var sourceIDs: [String] = [], fingerprints: [String] = [], itemIDs: [String] = []
        for batch in batches {
            sourceIDs.append(contentsOf: repeatElement(batch.source.id, count: batch.itemIDs.count))
            fingerprints.append(contentsOf: repeatElement(batch.source.fingerprint, count: batch.itemIDs.count))
            itemIDs.append(contentsOf: batch.itemIDs)
        }
        guard !itemIDs.isEmpty else { return }
        try database.transaction { [sourceIDs, fingerprints, itemIDs] session in
            try await PostgresArchiveWriter.archive(batches, at: date, in: session)
            try await session.execute("""
                INSERT INTO seen_item (source_id, fingerprint, item_id, first_seen_at)
                SELECT DISTINCT source_id, fingerprint, item_id, \(date.timeIntervalSince1970)::double precision
                FROM unnest(\(sourceIDs)::text[], \(fingerprints)::text[], \(itemIDs)::text[])
                    AS seen(source_id, fingerprint, item_id)
                ON CONFLICT DO NOTHING
                """)
        }
    }
}
