import Domain
import Foundation
import PostgresNIO
import StoreSupport

/// Writes items into the archive with the item history (`PostgresSeenItemsRepository`): one statement for every
/// source of a batch, its rows as one JSON array (`json_to_recordset`), so a null subtitle, URL or date stays null.
/// It runs as a data-modifying `WITH` part of the history's own statement: one round trip, one transaction. An item
/// seen before keeps its archive id, first-seen time and reader state; seen again unchanged, its row is rewritten
/// only when its `last_seen_at` is older than `lastSeenResolution` (as on SQLite).
enum PostgresArchiveWriter {
    static let lastSeenResolution: Double = 3_600

    /// The rows of `batches` as the JSON array `upsert` reads; nil when they hold no item.
    static func rows(_ batches: [SeenBatch]) -> String? {
        guard batches.contains(where: { !$0.items.isEmpty }) else { return nil }
        var rows = JSONWriter(capacity: batches.reduce(0) { $0 + $1.items.count } * 512)
        rows.beginArray()
        var order = 0
        for batch in batches {
            for item in batch.items {
                order += 1
                rows.beginObject()
                rows.key("o"); rows.int(order)
                rows.key("source_id"); rows.string(batch.source.id)
                rows.key("fingerprint"); rows.string(batch.source.fingerprint)
                rows.key("item_id"); rows.string(item.id)
                rows.key("kind"); rows.string(item.kind.rawValue)
                rows.key("title"); rows.string(item.title)
                rows.key("subtitle"); rows.string(item.subtitle)
                rows.key("url"); rows.string(item.url?.absoluteString)
                rows.key("body"); rows.string(ArchiveText.body(of: item))
                rows.key("date")
                if let itemDate = item.date { rows.double(itemDate.timeIntervalSince1970) } else { rows.null() }
                rows.key("fields"); rows.string(String(decoding: ArchiveText.encode(item.fields), as: UTF8.self))
                rows.endObject()
            }
        }
        rows.endArray()
        return rows.text
    }

    /// The upsert of the rows in parameter `rows` (JSON text from `rows(_:)`) seen at parameter `seen` (seconds
    /// since 1970), parameters named as `$n`. The last of an id repeated in the rows wins (a statement may change
    /// a row once only).
    static func upsert(rows: String, seen: String) -> String {
        """
        INSERT INTO archive_item (source_id, fingerprint, item_id, kind, title, subtitle, url, body, date, sort_date,
                                  fields, first_seen_at, last_seen_at)
        SELECT DISTINCT ON (source_id, fingerprint, item_id)
               source_id, fingerprint, item_id, kind, title, subtitle, url, body, date, coalesce(date, \(seen)::double precision),
               fields, \(seen)::double precision, \(seen)::double precision
        FROM json_to_recordset(\(rows)::json) AS row(o integer, source_id text, fingerprint text, item_id text,
             kind text, title text, subtitle text, url text, body text, date double precision, fields text)
        ORDER BY source_id, fingerprint, item_id, o DESC
        ON CONFLICT (source_id, fingerprint, item_id) DO UPDATE SET
            kind = excluded.kind, title = excluded.title, subtitle = excluded.subtitle, url = excluded.url,
            body = excluded.body, date = excluded.date, sort_date = coalesce(excluded.date, archive_item.first_seen_at),
            fields = excluded.fields, last_seen_at = excluded.last_seen_at
        WHERE archive_item.last_seen_at < excluded.last_seen_at - \(lastSeenResolution)::double precision
            OR (archive_item.kind, archive_item.title, archive_item.subtitle, archive_item.url, archive_item.body,
                archive_item.date, archive_item.fields)
               IS DISTINCT FROM (excluded.kind, excluded.title, excluded.subtitle, excluded.url, excluded.body,
                                 excluded.date, excluded.fields)
        """
    }
}
