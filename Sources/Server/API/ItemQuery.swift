import Domain
import Foundation

/// `GET /api/items`'s parameters, checked: every problem names its parameter (a 400 with a JSON error). The
/// items come from the store's archive: every item the watched sources delivered that retention keeps, not only
/// their latest (docs/SEARCH.md).
///
/// - `source=a,b`: only these sources (each must be watched; without it, every watched source);
///   `kind=issue,entry`: only these kinds; `since=2026-11-01T00:00:00Z`: only items dated after it (an undated
///   item by when it was first seen); `q=text`: full-text search in the search syntax (words, `"phrases"`,
///   `prefix*`, `OR`, `-left out`); `sort=date` (newest first, the default), `oldest` or `relevance` (best match
///   first, the default with `q`); `limit` 1…500 (50); `cursor`: the `nextCursor` of the previous page.
struct ItemQuery: Sendable, Hashable {
    var archive: ArchiveQuery

    static let maxLimit = 500
    static let maxValueLength = 2048
    static let known: Set<String> = ["source", "kind", "since", "q", "sort", "limit", "cursor"]
    static let sorts: [String: ArchiveQuery.Order] = ["date": .newest, "oldest": .oldest, "relevance": .relevance]

    init(_ parameters: [(name: String, value: String)], watched: [String]) throws(RequestProblem) {
        var given: Set<String> = []
        var sources: [String]?
        var kinds: Set<ItemKind>?
        var since: Date?
        var text: SearchQuery?
        var order: ArchiveQuery.Order?
        var limit = 50
        var cursor: ArchiveCursor?
        for (name, value) in parameters {
            guard Self.known.contains(name) else {
                throw RequestProblem(parameter: name, "unknown parameter (known: \(Self.known.sorted().joined(separator: ", ")))")
            }
            guard given.insert(name).inserted else { throw RequestProblem(parameter: name, "given more than once") }
            guard value.utf8.count <= Self.maxValueLength else {
                throw RequestProblem(parameter: name, "longer than \(Self.maxValueLength) bytes")
            }
            switch name {
            case "source": sources = try Self.sources(value, watched: watched)
            case "kind": kinds = try Self.kinds(value)
            case "since":
                guard let date = ISO8601.date(from: value) else {
                    throw RequestProblem(parameter: name, "not an ISO 8601 date-time such as 2026-11-01T00:00:00Z")
                }
                since = date
            case "q":
                do throws(SearchQuery.SyntaxError) {
                    text = try SearchQuery(value)
                } catch {
                    throw RequestProblem(parameter: name, error.message)
                }
            case "sort":
                guard let sort = Self.sorts[value] else {
                    throw RequestProblem(parameter: name, "date, oldest or relevance")
                }
                order = sort
            case "limit":
                guard let number = Int(value), (1...Self.maxLimit).contains(number) else {
                    throw RequestProblem(parameter: name, "a whole number from 1 to \(Self.maxLimit)")
                }
                limit = number
            default:
                guard let after = ArchiveCursor(value) else { throw RequestProblem(parameter: name, "not a cursor this server gave") }
                cursor = after
            }
        }
        archive = ArchiveQuery(
            text: text, sourceIDs: sources ?? watched, kinds: kinds, since: since, order: order, limit: limit, after: cursor)
    }

    static func sources(_ value: String, watched: [String]) throws(RequestProblem) -> [String] {
        let ids = list(value)
        let unknown = ids.filter { !watched.contains($0) }
        guard !ids.isEmpty, unknown.isEmpty else {
            let known = watched.count > 20 ? "\(watched.count) sources watched" : "watched: \(watched.joined(separator: ", "))"
            throw RequestProblem(parameter: "source", "unknown source \(unknown.first ?? "(empty)") (\(known))")
        }
        return ids
    }

    private static func kinds(_ value: String) throws(RequestProblem) -> Set<ItemKind> {
        var kinds: Set<ItemKind> = []
        for text in list(value) {
            guard let kind = ItemKind(rawValue: text) else {
                throw RequestProblem(parameter: "kind", "unknown kind \(text) (one of \(ItemKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { throw RequestProblem(parameter: "kind", "no kind given") }
        return kinds
    }

    private static func list(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
