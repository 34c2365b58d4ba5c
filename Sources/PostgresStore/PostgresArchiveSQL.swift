import Domain
import Foundation
import PostgresNIO

/// The SQL of an `ArchiveQuery` on PostgreSQL: its text as a `tsquery`, its filters, order and cursor, with
/// every value bound (`$n`), never spliced into the text.
struct PostgresArchiveSQL {
    /// The query's text in `to_tsquery`'s syntax, when it has one.
    let tsquery: String?
    let order: ArchiveQuery.Order
    private(set) var binds = PostgresBindings()
    private var conditions: [String] = []

    init(_ query: ArchiveQuery) {
        tsquery = query.text.map(Self.tsquery)
        order = query.effectiveOrder
        if let tsquery { conditions.append("a.search @@ to_tsquery('english', \(bind(tsquery)))") }
        if let ids = query.sourceIDs { conditions.append("a.source_id = ANY(\(bind(ids)))") }
        if let kinds = query.kinds { conditions.append("a.kind = ANY(\(bind(kinds.map(\.rawValue).sorted())))") }
        if let since = query.since { conditions.append("a.sort_date > \(bind(since.timeIntervalSince1970))") }
        if let until = query.until { conditions.append("a.sort_date <= \(bind(until.timeIntervalSince1970))") }
        if let read = query.read { conditions.append(read ? "a.read_at IS NOT NULL" : "a.read_at IS NULL") }
        if let starred = query.starred { conditions.append(starred ? "a.starred_at IS NOT NULL" : "a.starred_at IS NULL") }
        if let id = query.afterArchiveID { conditions.append("a.id > \(bind(Int(id)))") }
        if let id = query.beforeArchiveID { conditions.append("a.id < \(bind(Int(id)))") }
    }

    /// Binds `value` and returns its placeholder.
    private mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// The sort key: SQLite's bm25 is lower for a better match, so relevance sorts by the negated `ts_rank`,
    /// ascending, and cursors mean the same in both stores.
    var key: (expression: String, descending: Bool) {
        switch order {
        // $1 is the tsquery: bound first, by `init`.
        case .relevance: ("(-ts_rank(a.search, to_tsquery('english', $1)))::double precision", false)
        case .newest: ("a.sort_date", true)
        case .oldest: ("a.sort_date", false)
        case .archiveID: ("a.id::double precision", false)
        case .archiveIDDescending: ("a.id::double precision", true)
        }
    }

    /// `SELECT <columns>, <key> AS sort_key …` of the query's items after `cursor`, ordered, at most `limit`.
    func select(_ columns: String, after cursor: ArchiveCursor?, limit: Int) -> PostgresQuery {
        var copy = self
        let (key, descending) = self.key
        if let cursor {
            let past = descending ? "<" : ">"
            let value = copy.bind(cursor.key)
            copy.conditions.append("(\(key) \(past) \(value) OR (\(key) = \(value) AND a.id \(past) \(copy.bind(Int(cursor.archiveID)))))")
        }
        let direction = descending ? "DESC" : "ASC"
        let sql = "SELECT \(columns), \(key) AS sort_key FROM archive_item a" + Self.whereClause(copy.conditions)
            + " ORDER BY sort_key \(direction), a.id \(direction) LIMIT \(copy.bind(limit))"
        return PostgresQuery(unsafeSQL: sql, binds: copy.binds)
    }

    /// `UPDATE archive_item … WHERE` the query's unread items (mark-all-as-read).
    func markRead(at date: Date) -> PostgresQuery {
        var copy = self
        copy.conditions.append("a.read_at IS NULL")
        let sql = "UPDATE archive_item a SET read_at = \(copy.bind(date.timeIntervalSince1970))" + Self.whereClause(copy.conditions)
        return PostgresQuery(unsafeSQL: sql, binds: copy.binds)
    }

    private static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }

    /// `query` in `to_tsquery`'s syntax: every word quoted as a lexeme (the words hold letters and digits only).
    static func tsquery(_ query: SearchQuery) -> String {
        func lexeme(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "''") + "'" }
        func term(_ term: SearchQuery.Term) -> String {
            switch term {
            case .word(let word, let prefix): return lexeme(word) + (prefix ? ":*" : "")
            case .phrase(let words): return "(" + words.map(lexeme).joined(separator: " <-> ") + ")"
            }
        }
        var parts = query.required.map { group in
            group.count == 1 ? term(group[0]) : "(" + group.map(term).joined(separator: " | ") + ")"
        }
        parts += query.excluded.map { "!" + term($0) }
        return parts.joined(separator: " & ")
    }
}
