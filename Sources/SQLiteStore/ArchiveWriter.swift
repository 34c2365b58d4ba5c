import Domain
import Foundation
import GRDB
import StoreSupport

/// Writes items into the archive (`archive_item`, migration "v6-archive") inside the item history's transaction
/// (`SQLiteSeenItemsRepository`). A batch of at least `SeenBatches.minimumCount` items is staged
/// (`ArchiveStaging`): written as a few rows of encoded items, exploded into the archive and its index later; so
/// is any batch of a source that still has staged rows. A smaller batch is written at once.
///
/// Writing (`write`): a new item is inserted, then the batch's new rows are indexed at once; one seen before gets
/// its latest content, keeping its archive id, first-seen time and reader state. An item seen again unchanged is
/// rewritten only when its `last_seen_at` is older than `lastSeenResolution`: a source read every minute does not
/// rewrite every row every minute.
///
/// A large batch known by its digest is trusted for `lastSeenResolution`: when a source's items change and change
/// back within that time (A, B, A), the third batch is skipped and the rows keep B's content until a batch after
/// the hour rewrites them.
enum ArchiveWriter {
    /// How stale an unchanged item's `last_seen_at` may grow before a run that sees it rewrites the row.
    static let lastSeenResolution: TimeInterval = 3_600

    static func archive(_ items: [Item], of source: SourceIdentity, at date: Date, in db: Database) throws {
        guard !items.isEmpty else { return }
        let key = try sourceKey(of: source, in: db)
        let large = items.count >= SeenBatches.minimumCount
        guard try large || ArchiveStaging.hasStaged(key: key, in: db) else {
            return try write(items, key: key, at: date, in: db)
        }
        let payloads = ArchiveStaging.payloads(of: items)
        // A large batch archived whole within the last `lastSeenResolution`, unchanged (the same file read again),
        // would change no row: known by its digest, it costs one lookup instead of being staged again.
        let digest = large ? ArchiveStaging.digest(of: payloads) : nil
        if let digest, try isArchived(digest, key: key, since: date.addingTimeInterval(-lastSeenResolution), in: db) { return }
        try ArchiveStaging.stage(payloads, key: key, seen: date.timeIntervalSince1970, in: db)
        if let digest {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO archive_batch (source_key, digest, archived_at) VALUES (?, ?, ?)")
                .execute(arguments: [key, digest, date.timeIntervalSince1970])
        }
    }

    /// Writes `items` of the source `key`, seen at `date`, into `archive_item` and indexes the new rows.
    static func write(_ items: [Item], key: Int64, at date: Date, in db: Database) throws {
        guard !items.isEmpty else { return }
        // AUTOINCREMENT: whatever this batch inserts lies above it (the transaction holds the write lock).
        let highest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(id), 0) FROM archive_item")) ?? 0
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO archive_item (source_key, item_id, kind, title, subtitle, url, body, date, sort_date, fields,
                                      first_seen_at, last_seen_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (source_key, item_id) DO UPDATE SET
                kind = excluded.kind, title = excluded.title, subtitle = excluded.subtitle, url = excluded.url,
                body = excluded.body, date = excluded.date,
                sort_date = coalesce(excluded.date, archive_item.first_seen_at),
                fields = excluded.fields, last_seen_at = excluded.last_seen_at
            WHERE archive_item.last_seen_at < excluded.last_seen_at - \(lastSeenResolution)
                OR archive_item.title IS NOT excluded.title OR archive_item.subtitle IS NOT excluded.subtitle
                OR archive_item.url IS NOT excluded.url OR archive_item.body IS NOT excluded.body
                OR archive_item.date IS NOT excluded.date OR archive_item.fields IS NOT excluded.fields
                OR archive_item.kind IS NOT excluded.kind
            """)
        let seen = date.timeIntervalSince1970
        for item in items {
            let itemDate = item.date?.timeIntervalSince1970
            try upsert.execute(arguments: [
                key, item.id, item.kind.rawValue, item.title, item.subtitle, item.url?.absoluteString,
                ArchiveText.body(of: item), itemDate, itemDate ?? seen, Data(ArchiveText.encode(item.fields)), seen, seen,
            ])
        }
        try db.cachedStatement(sql: """
            INSERT INTO archive_fts (rowid, title, subtitle, body, url)
            SELECT id, title, subtitle, body, url FROM archive_item WHERE id > ?
            """).execute(arguments: [highest])
    }

    /// Whether the batch with `digest` was archived whole under `key` after `since` (and nothing of that source
    /// was pruned since: pruning forgets its digests).
    private static func isArchived(_ digest: Data, key: Int64, since: Date, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM archive_batch WHERE source_key = ? AND digest = ? AND archived_at >= ?)"),
            arguments: [key, digest, since.timeIntervalSince1970]) ?? false
    }

    /// `source`'s key in `archive_source`, made when it has none.
    static func sourceKey(of source: SourceIdentity, in db: Database) throws -> Int64 {
        if let key = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT key FROM archive_source WHERE source_id = ? AND fingerprint = ?"),
            arguments: [source.id, source.fingerprint]) {
            return key
        }
        try db.cachedStatement(sql: "INSERT INTO archive_source (source_id, fingerprint) VALUES (?, ?)")
            .execute(arguments: [source.id, source.fingerprint])
        return db.lastInsertedRowID
    }
}
