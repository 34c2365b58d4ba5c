import Domain
import Foundation
import GRDB
import StoreSupport

/// Writes items into the archive (`archive_item`, migration "v6-archive") inside the item history's transaction
/// (`SQLiteSeenItemsRepository`): a new item is inserted (and indexed by the table's trigger); one seen before
/// gets its latest content and `last_seen_at`, keeping its archive id, first-seen time and reader state.
enum ArchiveWriter {
    static func archive(_ items: [Item], of source: SourceIdentity, at date: Date, in db: Database) throws {
        guard !items.isEmpty else { return }
        let key = try sourceKey(of: source, in: db)
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO archive_item (source_key, item_id, kind, title, subtitle, url, body, date, sort_date, fields,
                                      first_seen_at, last_seen_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (source_key, item_id) DO UPDATE SET
                kind = excluded.kind, title = excluded.title, subtitle = excluded.subtitle, url = excluded.url,
                body = excluded.body, date = excluded.date,
                sort_date = coalesce(excluded.date, archive_item.first_seen_at),
                fields = excluded.fields, last_seen_at = excluded.last_seen_at
            """)
        let seen = date.timeIntervalSince1970
        for item in items {
            let itemDate = item.date?.timeIntervalSince1970
            try upsert.execute(arguments: [
                key, item.id, item.kind.rawValue, item.title, item.subtitle, item.url?.absoluteString,
                ArchiveText.body(of: item), itemDate, itemDate ?? seen, Data(ArchiveText.encode(item.fields)), seen, seen,
            ])
        }
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
