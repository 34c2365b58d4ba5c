import Domain
import Foundation
import PostgresNIO

/// The item history (`seen_item`) behind `--new`, shared by every process: an id is inserted once
/// (`ON CONFLICT DO NOTHING … RETURNING`), so of several processes recording the same new item at once exactly
/// one is told it is new. That is what makes `--new` announce each item once across machines. The items themselves
/// go into the archive in the same statement (`PostgresArchiveWriter`), so in the same transaction.
public struct PostgresSeenItemsRepository: Sendable {
    private let database: PostgresStoreDatabase

    public init(database: PostgresStoreDatabase) {
        self.database = database
    }
}

extension PostgresSeenItemsRepository: SeenItemsRepository {
    public func recordSeen(by source: SourceIdentity, items: [Item], at date: Date) throws(SourceError) -> SeenItems {
        // $1 seen at, $2 source, $3 fingerprint, $4 ids, $5 the archive's rows. Whether the source has a history is
        // read from the statement's snapshot, before its own inserts.
        var binds = PostgresBindings()
        binds.append(date.timeIntervalSince1970)
        binds.append(source.id)
        binds.append(source.fingerprint)
        binds.append(items.map(\.id))
        let history = """
            known AS (SELECT EXISTS (SELECT 1 FROM seen_item WHERE source_id = $2 AND fingerprint = $3) AS known),
            unseen AS (
                INSERT INTO seen_item (source_id, fingerprint, item_id, first_seen_at)
                SELECT DISTINCT $2, $3, id, $1::double precision FROM unnest($4::text[]) AS id
                ON CONFLICT DO NOTHING RETURNING item_id)
            SELECT (SELECT known FROM known), (SELECT coalesce(array_agg(item_id), '{}') FROM unseen)
            """
        let statement = Self.withArchive([SeenBatch(source: source, items: items)], binds: &binds, then: history)
        return try database.withSession { session in
            let row = try await session.rows(statement).first
            let unseen = try row?[1].decode([String].self) ?? []
            return SeenItems(unseen: Set(unseen), isFirstRun: !(try row?[0].decode(Bool.self) ?? false))
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
        var binds = PostgresBindings()
        binds.append(date.timeIntervalSince1970)
        binds.append(sourceIDs)
        binds.append(fingerprints)
        binds.append(itemIDs)
        let history = """
            seen AS (
                INSERT INTO seen_item (source_id, fingerprint, item_id, first_seen_at)
                SELECT DISTINCT source_id, fingerprint, item_id, $1::double precision
                FROM unnest($2::text[], $3::text[], $4::text[]) AS seen(source_id, fingerprint, item_id)
                ON CONFLICT DO NOTHING)
            SELECT 1
            """
        let statement = Self.withArchive(batches, binds: &binds, then: history)
        try database.withSession { session in _ = try await session.execute(statement) }
    }

    /// One statement, so one round trip and one transaction: the archive's upsert of `batches` (its rows bound as
    /// the next parameter), then `history`: more `WITH` parts and the final query, which may use `$1` (seen at).
    private static func withArchive(_ batches: [SeenBatch], binds: inout PostgresBindings, then history: String) -> PostgresQuery {
        var sql = "WITH "
        if let rows = PostgresArchiveWriter.rows(batches) {
            binds.append(rows)
            sql += "archived AS (\(PostgresArchiveWriter.upsert(rows: "$\(binds.count)", seen: "$1"))),\n"
        }
        return PostgresQuery(unsafeSQL: sql + history, binds: binds)
    }
}
