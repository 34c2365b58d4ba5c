import Domain
import Foundation
import GRDB
import StoreSupport

/// The item archive on SQLite: `archive_item` with its FTS5 index (`archive_fts`, ranked by bm25, the title
/// weighing most). Written by `SQLiteSeenItemsRepository` (`ArchiveWriter`); this reads, marks and prunes it,
/// each call first writing what runs staged (`ArchiveStaging`).
public struct SQLiteItemArchive: Sendable {
    private let database: AppDatabase

    /// Rows removed or marked per transaction: a run writing meanwhile waits for one such batch at most.
    static let batchSize = 2_000

    static let columns = "a.id, s.source_id, a.item_id, a.kind, a.title, a.subtitle, a.url, a.date, a.sort_date, a.fields, "
        + "a.first_seen_at, a.last_seen_at, a.read_at, a.starred_at"

    public init(database: AppDatabase) {
        self.database = database
    }
}

extension SQLiteItemArchive: StagingItemArchive {
    public func catchUp() throws(SourceError) -> Int {
        try ArchiveStaging.catchUp(database)
    }

    public func items(_ query: ArchiveQuery) throws(SourceError) -> ArchivePage {
        _ = try catchUp()
        let sql = ArchiveSQL(query)
        let rank = sql.match == nil ? "0.0" : "hits.rank"
        let statement = sql.select(Self.columns + ", \(rank) AS rank", after: query.after, limit: query.limit + 1)
        return try database.read { db in
            var items: [ArchivedItem] = []
            var keys: [Double] = []
            for row in try Row.fetchAll(db, sql: statement.sql, arguments: statement.arguments) {
                let item = Self.archivedItem(row)
                items.append(item)
                switch sql.order {
                case .relevance: keys.append(row["rank"])
                case .newest, .oldest: keys.append(row["sort_date"])
                case .archiveID, .archiveIDDescending: keys.append(Double(item.archiveID))
                }
            }
            var next: ArchiveCursor?
            if items.count > query.limit {
                items.removeLast(items.count - query.limit)
                next = ArchiveCursor(key: keys[query.limit - 1], archiveID: items[query.limit - 1].archiveID)
            }
            if let match = sql.match, !items.isEmpty {
                let snippets = try Self.snippets(match, ids: items.map(\.archiveID), in: db)
                for index in items.indices { items[index].snippet = snippets[items[index].archiveID] }
            }
            return ArchivePage(items: items, next: next)
        }
    }

    public func items(withIDs ids: [Int64]) throws(SourceError) -> [ArchivedItem] {
        guard !ids.isEmpty else { return [] }
        _ = try catchUp()
        return try database.read { db in
            var found: [Int64: ArchivedItem] = [:]
            for chunk in ids.chunks(of: 500) {
                for row in try Row.fetchAll(db, sql: """
                    SELECT \(Self.columns) FROM archive_item a JOIN archive_source s ON s.key = a.source_key
                    WHERE a.id IN (\(ArchiveSQL.placeholders(chunk.count)))
                    """, arguments: StatementArguments(chunk)) {
                    let item = Self.archivedItem(row)
                    found[item.archiveID] = item
                }
            }
            return ids.compactMap { found[$0] }
        }
    }

    public func items(of sourceID: String, itemIDs: [String]) throws(SourceError) -> [ArchivedItem] {
        guard !itemIDs.isEmpty else { return [] }
        _ = try catchUp()
        return try database.read { db in
            var found: [String: ArchivedItem] = [:]
            for chunk in itemIDs.chunks(of: 500) {
                // The newest identity first: its row wins over an older identity's of the same item id.
                for row in try Row.fetchAll(db, sql: """
                    SELECT \(Self.columns) FROM archive_item a JOIN archive_source s ON s.key = a.source_key
                    WHERE s.source_id = ? AND a.item_id IN (\(ArchiveSQL.placeholders(chunk.count))) ORDER BY s.key DESC
                    """, arguments: StatementArguments([sourceID] + chunk)) {
                    let item = Self.archivedItem(row)
                    if found[item.item.id] == nil { found[item.item.id] = item }
                }
            }
            return itemIDs.compactMap { found[$0] }
        }
    }

    public func setState(of ids: [Int64], read: Bool?, starred: Bool?, at date: Date) throws(SourceError) -> Int {
        // Each state set, and the condition under which setting it changes a row (only those rows count).
        var assignments: [String] = []
        var changes: [String] = []
        var values: [(any DatabaseValueConvertible)?] = []
        for (column, wanted) in [("read_at", read), ("starred_at", starred)] {
            guard let wanted else { continue }
            assignments.append(wanted ? "\(column) = coalesce(\(column), ?)" : "\(column) = NULL")
            changes.append(wanted ? "\(column) IS NULL" : "\(column) IS NOT NULL")
            if wanted { values.append(date.timeIntervalSince1970) }
        }
        guard !assignments.isEmpty, !ids.isEmpty else { return 0 }
        _ = try catchUp()
        var changed = 0
        for chunk in ids.chunks(of: Self.batchSize) {
            changed += try database.write { db in
                try db.execute(
                    sql: "UPDATE archive_item SET \(assignments.joined(separator: ", ")) "
                        + "WHERE id IN (\(ArchiveSQL.placeholders(chunk.count))) AND (\(changes.joined(separator: " OR ")))",
                    arguments: StatementArguments(values + chunk.map { $0 as (any DatabaseValueConvertible)? }))
                return db.changesCount
            }
        }
        return changed
    }

    public func markAllRead(_ query: ArchiveQuery, at date: Date) throws(SourceError) -> Int {
        var unread = query
        unread.read = false
        _ = try catchUp()
        let statement = ArchiveSQL(unread).ids()
        let ids = try database.read { db in try Int64.fetchAll(db, sql: statement.sql, arguments: statement.arguments) }
        return try setState(of: ids, read: true, starred: nil, at: date)
    }

    public func stats() throws(SourceError) -> [ArchiveStats] {
        _ = try catchUp()
        return try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.source_id, COUNT(*) AS n, SUM(a.read_at IS NULL) AS unread, SUM(a.starred_at IS NOT NULL) AS starred,
                       MIN(a.first_seen_at) AS oldest, MAX(a.first_seen_at) AS newest
                FROM archive_item a JOIN archive_source s ON s.key = a.source_key
                GROUP BY s.source_id ORDER BY s.source_id
                """).map { row in
                ArchiveStats(
                    sourceID: row["source_id"], items: row["n"], unread: row["unread"] ?? 0, starred: row["starred"] ?? 0,
                    oldestFirstSeen: (row["oldest"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    newestFirstSeen: (row["newest"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func prune(
        retention: @Sendable (_ sourceID: String) -> ArchiveRetention, now: Date
    ) throws(SourceError) -> Int {
        _ = try catchUp()
        let sourceIDs = try database.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT source_id FROM archive_source ORDER BY source_id")
        }
        var removed = 0
        for sourceID in sourceIDs {
            let rule = retention(sourceID)
            let cutoff = now.addingTimeInterval(-Double(rule.days) * 86_400).timeIntervalSince1970
            removed += try deleteInBatches { db in
                try Int64.fetchAll(db, sql: """
                    SELECT a.id FROM archive_item a JOIN archive_source s ON s.key = a.source_key
                    WHERE s.source_id = ? AND a.first_seen_at < ? AND a.starred_at IS NULL LIMIT ?
                    """, arguments: [sourceID, cutoff, Self.batchSize])
            }
            removed += try deleteInBatches { db in
                try Int64.fetchAll(db, sql: """
                    SELECT a.id FROM archive_item a JOIN archive_source s ON s.key = a.source_key
                    WHERE s.source_id = ? AND a.starred_at IS NULL
                    ORDER BY a.first_seen_at DESC, a.id DESC LIMIT ? OFFSET ?
                    """, arguments: [sourceID, Self.batchSize, rule.maxItemsPerSource])
            }
        }
        try refreshStatistics()
        return removed
    }

    /// The query planner's statistics of the archive, read whole (a sample misjudges how many items a source
    /// has): without them SQLite reads a source's newest items by its source index and sorts them all where
    /// walking the date index takes milliseconds (BENCHMARKS.md, "The item archive"). Pruning refreshes them.
    private func refreshStatistics() throws(SourceError) {
        try database.write { db in
            try db.execute(sql: "ANALYZE archive_source; ANALYZE archive_item")
        }
        // A connection reads the statistics when it loads the schema, and ANALYZE does not make the others
        // reload it: the pool's readers are opened anew.
        database.pool.invalidateReadOnlyConnections()
    }

    /// Deletes the rows `select` names, a batch per transaction, until it names none. The batches archived whole
    /// of the sources it deletes from are forgotten in the same transaction (`ArchiveWriter`: a batch seen again
    /// must be written again).
    private func deleteInBatches(_ select: @escaping (Database) throws -> [Int64]) throws(SourceError) -> Int {
        var removed = 0
        while true {
            let count = try database.write { db -> Int in
                let ids = try select(db)
                guard !ids.isEmpty else { return 0 }
                let list = ArchiveSQL.placeholders(ids.count)
                try db.execute(sql: "DELETE FROM archive_batch WHERE source_key IN (SELECT DISTINCT source_key FROM archive_item WHERE id IN (\(list)))",
                               arguments: StatementArguments(ids))
                try db.execute(sql: "DELETE FROM archive_item WHERE id IN (\(list))", arguments: StatementArguments(ids))
                return ids.count
            }
            removed += count
            if count < Self.batchSize { return removed }
        }
    }

    /// The best passage of each of `ids`' text for `match`, matches marked.
    private static func snippets(_ match: String, ids: [Int64], in db: Database) throws -> [Int64: String] {
        let (start, end) = ArchivedItem.highlight
        var result: [Int64: String] = [:]
        let rows = try Row.fetchAll(db, sql: """
            SELECT rowid, snippet(archive_fts, -1, ?, ?, '…', 16) AS snippet FROM archive_fts
            WHERE archive_fts MATCH ? AND rowid IN (\(ArchiveSQL.placeholders(ids.count)))
            """, arguments: StatementArguments([start, end, match] + ids.map { $0 as any DatabaseValueConvertible }))
        for row in rows { result[row["rowid"]] = row["snippet"] }
        return result
    }

    private static func archivedItem(_ row: Row) -> ArchivedItem {
        let seconds: Double? = row["date"]
        let item = Item(
            kind: ItemKind(rawValue: row["kind"]) ?? .record, id: row["item_id"], title: row["title"],
            subtitle: row["subtitle"], url: (row["url"] as String?).flatMap(URL.init(string:)),
            date: seconds.map(Date.init(timeIntervalSince1970:)),
            fields: ArchiveText.decodeFields(row["fields"]))
        return ArchivedItem(
            archiveID: row["id"], sourceID: row["source_id"], item: item,
            firstSeenAt: Date(timeIntervalSince1970: row["first_seen_at"]),
            lastSeenAt: Date(timeIntervalSince1970: row["last_seen_at"]),
            readAt: (row["read_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            starredAt: (row["starred_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

extension Array {
    /// The array in consecutive slices of at most `size` elements.
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min(count, $0 + size)] }
    }
}
