import Domain
import Foundation
import PostgresNIO
import StoreSupport

/// The item archive on PostgreSQL: `archive_item` with its stored `tsvector` under a GIN index, ranked by
/// `ts_rank`. Written by `PostgresSeenItemsRepository` (`PostgresArchiveWriter`); this reads, marks and prunes it,
/// for every process sharing the store (a fleet's workers write it, `serve --no-worker` replicas read it).
public struct PostgresItemArchive: Sendable {
    private let database: PostgresStoreDatabase

    /// Rows removed or marked per statement: a run writing meanwhile waits for one such batch at most.
    static let batchSize = 2_000

    static let columns = "a.id, a.source_id, a.item_id, a.kind, a.title, a.subtitle, a.url, a.date, a.fields, "
        + "a.first_seen_at, a.last_seen_at, a.read_at, a.starred_at"

    public init(database: PostgresStoreDatabase) {
        self.database = database
    }
}

extension PostgresItemArchive: ItemArchiveRepository {
    public func items(_ query: ArchiveQuery) throws(SourceError) -> ArchivePage {
        let sql = PostgresArchiveSQL(query)
        let statement = sql.select(Self.columns, after: query.after, limit: query.limit + 1)
        return try database.withSession { session in
            var items: [ArchivedItem] = []
            var keys: [Double] = []
            for row in try await session.rows(statement) {
                items.append(try Self.archivedItem(row))
                keys.append(try row[13].decode(Double.self))
            }
            var next: ArchiveCursor?
            if items.count > query.limit {
                items.removeLast(items.count - query.limit)
                next = ArchiveCursor(key: keys[query.limit - 1], archiveID: items[query.limit - 1].archiveID)
            }
            if let tsquery = sql.tsquery, !items.isEmpty {
                let (start, end) = ArchivedItem.highlight
                let options = "StartSel=\(start), StopSel=\(end), MaxWords=24, MinWords=10, MaxFragments=1, FragmentDelimiter=…"
                var snippets: [Int64: String] = [:]
                for row in try await session.rows("""
                    SELECT id, ts_headline('english', title || ' ' || coalesce(subtitle, '') || ' ' || body,
                                           to_tsquery('english', \(tsquery)), \(options))
                    FROM archive_item WHERE id = ANY(\(items.map { Int($0.archiveID) }))
                    """) {
                    snippets[Int64(try row[0].decode(Int.self))] = try row[1].decode(String.self)
                }
                for index in items.indices { items[index].snippet = snippets[items[index].archiveID] }
            }
            return ArchivePage(items: items, next: next)
        }
    }

    public func items(withIDs ids: [Int64]) throws(SourceError) -> [ArchivedItem] {
        guard !ids.isEmpty else { return [] }
        let found = try database.withSession { session in
            try await session.rows(PostgresQuery(unsafeSQL: "SELECT \(Self.columns) FROM archive_item a WHERE a.id = ANY($1)",
                                           binds: Self.binds(ids.map { Int($0) })))
                .map(Self.archivedItem)
        }
        let byID = Dictionary(found.map { ($0.archiveID, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    public func items(of sourceID: String, itemIDs: [String]) throws(SourceError) -> [ArchivedItem] {
        guard !itemIDs.isEmpty else { return [] }
        // The row archived last first: a newer identity's row of an item id wins over an older one's.
        let found = try database.withSession { session in
            var binds = PostgresBindings()
            binds.append(sourceID)
            binds.append(itemIDs)
            return try await session.rows(PostgresQuery(
                unsafeSQL: "SELECT \(Self.columns) FROM archive_item a WHERE a.source_id = $1 AND a.item_id = ANY($2) ORDER BY a.id DESC",
                binds: binds)).map(Self.archivedItem)
        }
        var byID: [String: ArchivedItem] = [:]
        for item in found where byID[item.item.id] == nil { byID[item.item.id] = item }
        return itemIDs.compactMap { byID[$0] }
    }

    public func setState(of ids: [Int64], read: Bool?, starred: Bool?, at date: Date) throws(SourceError) -> Int {
        var assignments: [String] = []
        var changes: [String] = []
        for (column, wanted) in [("read_at", read), ("starred_at", starred)] {
            guard let wanted else { continue }
            assignments.append(wanted ? "\(column) = coalesce(\(column), $2)" : "\(column) = NULL")
            changes.append(wanted ? "\(column) IS NULL" : "\(column) IS NOT NULL")
        }
        guard !assignments.isEmpty, !ids.isEmpty else { return 0 }
        let sql = "UPDATE archive_item SET \(assignments.joined(separator: ", ")) "
            + "WHERE id = ANY($1) AND (\(changes.joined(separator: " OR ")))"
        var changed = 0
        for start in stride(from: 0, to: ids.count, by: Self.batchSize) {
            var batch = Self.binds(ids[start..<min(ids.count, start + Self.batchSize)].map { Int($0) })
            batch.append(date.timeIntervalSince1970)
            let binds = batch
            changed += try database.withSession { session in
                try await session.execute(PostgresQuery(unsafeSQL: sql, binds: binds))
            }
        }
        return changed
    }

    public func markAllRead(_ query: ArchiveQuery, at date: Date) throws(SourceError) -> Int {
        let statement = PostgresArchiveSQL(query).markRead(at: date)
        return try database.withSession { session in try await session.execute(statement) }
    }

    public func stats() throws(SourceError) -> [ArchiveStats] {
        try database.withSession { session in
            try await session.rows("""
                SELECT source_id, count(*)::bigint, count(*) FILTER (WHERE read_at IS NULL)::bigint,
                       count(*) FILTER (WHERE starred_at IS NOT NULL)::bigint, min(first_seen_at), max(first_seen_at)
                FROM archive_item GROUP BY source_id ORDER BY source_id
                """).map { row in
                ArchiveStats(
                    sourceID: try row[0].decode(String.self), items: try row[1].decode(Int.self),
                    unread: try row[2].decode(Int.self), starred: try row[3].decode(Int.self),
                    oldestFirstSeen: try row[4].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
                    newestFirstSeen: try row[5].decode(Double?.self).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func prune(
        retention: @Sendable (_ sourceID: String) -> ArchiveRetention, now: Date
    ) throws(SourceError) -> Int {
        // Each source's items and oldest first-seen time, starred ones included (never pruned): a source under both
        // limits gets no DELETE at all (a worker's first run on a new store prunes beside its other batches).
        let sources = try database.withSession { session in
            try await session.rows("""
                SELECT source_id, count(*)::bigint, min(first_seen_at) FROM archive_item GROUP BY source_id ORDER BY source_id
                """).map { row in (id: try row[0].decode(String.self), items: try row[1].decode(Int.self), oldest: try row[2].decode(Double.self)) }
        }
        var removed = 0
        for source in sources {
            let rule = retention(source.id)
            let cutoff = now.addingTimeInterval(-Double(rule.days) * 86_400).timeIntervalSince1970
            if source.oldest < cutoff {
                removed += try deleteInBatches("""
                    DELETE FROM archive_item WHERE id IN (
                        SELECT id FROM archive_item WHERE source_id = \(source.id) AND first_seen_at < \(cutoff)
                        AND starred_at IS NULL LIMIT \(Self.batchSize))
                    """)
            }
            if source.items > rule.maxItemsPerSource {
                removed += try deleteInBatches("""
                    DELETE FROM archive_item WHERE id IN (
                        SELECT id FROM archive_item WHERE source_id = \(source.id) AND starred_at IS NULL
                        ORDER BY first_seen_at DESC, id DESC LIMIT \(Self.batchSize) OFFSET \(rule.maxItemsPerSource))
                    """)
            }
        }
        return removed
    }

    /// Runs `statement` (a DELETE of at most `batchSize` rows) until it deletes fewer.
    private func deleteInBatches(_ statement: PostgresQuery) throws(SourceError) -> Int {
        var removed = 0
        while true {
            let count = try database.withSession { session in try await session.execute(statement) }
            removed += count
            if count < Self.batchSize { return removed }
        }
    }

    private static func binds(_ ids: [Int]) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(ids)
        return binds
    }

    private static func archivedItem(_ row: PostgresRandomAccessRow) throws -> ArchivedItem {
        let item = Item(
            kind: ItemKind(rawValue: try row[3].decode(String.self)) ?? .record, id: try row[2].decode(String.self),
            title: try row[4].decode(String.self), subtitle: try row[5].decode(String?.self),
            url: try row[6].decode(String?.self).flatMap(URL.init(string:)),
            date: try row[7].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
            fields: ArchiveText.decodeFields(Data(try row[8].decode(String.self).utf8)))
        return ArchivedItem(
            archiveID: Int64(try row[0].decode(Int.self)), sourceID: try row[1].decode(String.self), item: item,
            firstSeenAt: Date(timeIntervalSince1970: try row[9].decode(Double.self)),
            lastSeenAt: Date(timeIntervalSince1970: try row[10].decode(Double.self)),
            readAt: try row[11].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
            starredAt: try row[12].decode(Double?.self).map(Date.init(timeIntervalSince1970:)))
    }
}
