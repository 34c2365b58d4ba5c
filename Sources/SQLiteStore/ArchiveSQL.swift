import Domain
import Foundation
import GRDB

/// The SQL of an `ArchiveQuery` on SQLite: the FTS5 `MATCH` of its text, its filters, its order and its cursor.
struct ArchiveSQL {
    /// The query's text in FTS5's syntax, when it has one.
    let match: String?
    let order: ArchiveQuery.Order
    /// `WHERE …` over `archive_item a` joined with `archive_source s` (and `hits` with a text).
    private(set) var conditions: [String] = []
    private(set) var arguments: [(any DatabaseValueConvertible)?] = []

    init(_ query: ArchiveQuery) {
        match = query.text.map(Self.match)
        order = query.effectiveOrder
        if let ids = query.sourceIDs {
            add("s.source_id IN (\(Self.placeholders(ids.count)))", ids)
        }
        if let kinds = query.kinds {
            add("a.kind IN (\(Self.placeholders(kinds.count)))", kinds.map(\.rawValue).sorted())
        }
        if let since = query.since { add("a.sort_date > ?", [since.timeIntervalSince1970]) }
        if let until = query.until { add("a.sort_date <= ?", [until.timeIntervalSince1970]) }
        if let read = query.read { add(read ? "a.read_at IS NOT NULL" : "a.read_at IS NULL", [Double]()) }
        if let starred = query.starred { add(starred ? "a.starred_at IS NOT NULL" : "a.starred_at IS NULL", [Double]()) }
        if let id = query.afterArchiveID { add("a.id > ?", [id]) }
        if let id = query.beforeArchiveID { add("a.id < ?", [id]) }
    }

    private mutating func add(_ condition: String, _ values: [some DatabaseValueConvertible]) {
        conditions.append(condition)
        arguments.append(contentsOf: values.map { $0 as (any DatabaseValueConvertible)? })
    }

    /// What the page is sorted by, and whether descending.
    var key: (column: String, descending: Bool) {
        switch order {
        case .relevance: ("hits.rank", false)
        case .newest: ("a.sort_date", true)
        case .oldest: ("a.sort_date", false)
        case .archiveID: ("a.id", false)
        case .archiveIDDescending: ("a.id", true)
        }
    }

    /// `SELECT <columns> …` of the query's items after `cursor`, ordered, at most `limit`.
    func select(_ columns: String, after cursor: ArchiveCursor?, limit: Int) -> (sql: String, arguments: StatementArguments) {
        var conditions = self.conditions
        var values = matchArgument + arguments
        if let cursor {
            let (column, descending) = key
            let past = descending ? "<" : ">"
            conditions.append("(\(column) \(past) ? OR (\(column) = ? AND a.id \(past) ?))")
            values += [cursor.key, cursor.key, cursor.archiveID]
        }
        let (column, descending) = key
        let direction = descending ? "DESC" : "ASC"
        let sql = prefix + "SELECT \(columns) \(joins)" + Self.whereClause(conditions)
            + " ORDER BY \(column) \(direction), a.id \(direction) LIMIT ?"
        return (sql, StatementArguments(values + [limit]))
    }

    /// The archive ids of every item the query selects (its order, limit and cursor left out).
    func ids() -> (sql: String, arguments: StatementArguments) {
        (prefix + "SELECT a.id \(joins)" + Self.whereClause(conditions), StatementArguments(matchArgument + arguments))
    }

    private var prefix: String {
        match == nil ? "" : "WITH hits AS (SELECT rowid AS id, bm25(archive_fts, 10.0, 4.0, 1.0, 2.0) AS rank "
            + "FROM archive_fts WHERE archive_fts MATCH ?) "
    }

    private var joins: String {
        match == nil
            ? "FROM archive_item a JOIN archive_source s ON s.key = a.source_key"
            : "FROM hits JOIN archive_item a ON a.id = hits.id JOIN archive_source s ON s.key = a.source_key"
    }

    private var matchArgument: [(any DatabaseValueConvertible)?] { match.map { [$0] } ?? [] }

    private static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }

    /// `query` in FTS5's syntax: each word or phrase quoted, so nothing of the user's text is an operator.
    static func match(_ query: SearchQuery) -> String {
        func quoted(_ term: SearchQuery.Term) -> String {
            switch term {
            case .word(let word, let prefix): return "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (prefix ? "*" : "")
            case .phrase(let words): return "\"" + words.joined(separator: " ").replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
        }
        let required = query.required.map { group in
            group.count == 1 ? quoted(group[0]) : "(" + group.map(quoted).joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
        guard !query.excluded.isEmpty else { return required }
        return "(" + required + ") NOT (" + query.excluded.map(quoted).joined(separator: " OR ") + ")"
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
