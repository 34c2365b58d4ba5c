import Domain
import Foundation

/// `GET /api/items`'s parameters, checked: every problem names its parameter (a 400 with a JSON error).
///
/// - `source=a,b`: only these sources (each must be watched); `kind=issue,entry`: only these kinds;
///   `since=2026-11-01T00:00:00Z`: only items dated after it; `q=text`: title or subtitle contains it
///   (case and accents ignored); `sort=date`: newest first across sources (else manifest order, each
///   source in its own order); `limit` 1…500 (50); `cursor`: the `nextCursor` of the previous page.
struct ItemQuery: Sendable, Hashable {
    var sources: [String]?
    var kinds: Set<ItemKind>?
    var since: Date?
    var text: String?
    var order: ItemOrder = .source
    var limit = 50
    var cursor: ItemCursor?

    static let maxLimit = 500
    static let maxTextLength = 256
    static let maxValueLength = 2048
    static let known: Set<String> = ["source", "kind", "since", "q", "sort", "limit", "cursor"]

    init(_ parameters: [(name: String, value: String)], watched: [String]) throws(RequestProblem) {
        var given: Set<String> = []
        for (name, value) in parameters {
            guard Self.known.contains(name) else {
                throw RequestProblem(parameter: name, "unknown parameter (known: \(Self.known.sorted().joined(separator: ", ")))")
            }
            guard given.insert(name).inserted else { throw RequestProblem(parameter: name, "given more than once") }
            guard value.utf8.count <= Self.maxValueLength else {
                throw RequestProblem(parameter: name, "longer than \(Self.maxValueLength) bytes")
            }
            try read(name, value, watched: watched)
        }
    }

    private mutating func read(_ name: String, _ value: String, watched: [String]) throws(RequestProblem) {
        switch name {
        case "source":
            let ids = Self.list(value)
            let unknown = ids.filter { !watched.contains($0) }
            guard !ids.isEmpty, unknown.isEmpty else {
                throw RequestProblem(parameter: name, "unknown source \(unknown.first ?? "(empty)") (watched: \(watched.joined(separator: ", ")))")
            }
            sources = ids
        case "kind":
            var kinds: Set<ItemKind> = []
            for text in Self.list(value) {
                guard let kind = ItemKind(rawValue: text) else {
                    throw RequestProblem(parameter: name, "unknown kind \(text) (one of \(ItemKind.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                kinds.insert(kind)
            }
            guard !kinds.isEmpty else { throw RequestProblem(parameter: name, "no kind given") }
            self.kinds = kinds
        case "since":
            guard let date = ISO8601.date(from: value) else {
                throw RequestProblem(parameter: name, "not an ISO 8601 date-time such as 2026-11-01T00:00:00Z")
            }
            since = date
        case "q":
            guard !value.isEmpty, value.count <= Self.maxTextLength else {
                throw RequestProblem(parameter: name, "1 to \(Self.maxTextLength) characters")
            }
            text = value
        case "sort":
            guard let order = ItemOrder(rawValue: value) else {
                throw RequestProblem(parameter: name, "date or source")
            }
            self.order = order
        case "limit":
            guard let limit = Int(value), (1...Self.maxLimit).contains(limit) else {
                throw RequestProblem(parameter: name, "a whole number from 1 to \(Self.maxLimit)")
            }
            self.limit = limit
        default:
            guard let cursor = ItemCursor(value) else { throw RequestProblem(parameter: name, "not a cursor this server gave") }
            self.cursor = cursor
        }
    }

    private static func list(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// One page of `report`'s items: the shaping is the engine's own (`ShapeItemsUseCase`: `since`, the date
    /// merge), then the server's filters and the page.
    func page(of report: AggregateReport) throws(RequestProblem) -> (items: [(source: String, item: Item)], next: ItemCursor?) {
        var report = report
        if let sources { report.sources.removeAll { !sources.contains($0.id) } }
        let shaped = ShapeItemsUseCase(ItemShaping(since: since, order: order)).execute(report)
        var items = shaped.itemsInOutputOrder()
        if let kinds { items.removeAll { !kinds.contains($0.item.kind) } }
        if let text {
            items.removeAll { !Self.contains($0.item, text) }
        }
        var start = 0
        if let cursor {
            guard let index = items.firstIndex(where: { $0.source == cursor.source && $0.item.id == cursor.item }) else {
                throw RequestProblem(.badRequest, parameter: "cursor", "the item it continues from is gone; start again without a cursor")
            }
            start = index + 1
        }
        let end = min(items.count, start + limit)
        let page = Array(items[start..<end])
        let next = end < items.count ? page.last.map { ItemCursor(source: $0.source, item: $0.item.id) } : nil
        return (page, next)
    }

    private static func contains(_ item: Item, _ text: String) -> Bool {
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        return item.title.range(of: text, options: options) != nil
            || item.subtitle?.range(of: text, options: options) != nil
    }
}

/// Where a page ended: the source and id of its last item, opaque to clients (base64url).
struct ItemCursor: Sendable, Hashable {
    var source: String
    var item: String

    init(source: String, item: String) {
        self.source = source
        self.item = item
    }

    init?(_ text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let decoded = String(data: data, encoding: .utf8),
              decoded.hasPrefix("1\u{1F}") else { return nil }
        let parts = decoded.split(separator: "\u{1F}", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        source = String(parts[1])
        item = String(parts[2])
    }

    var text: String {
        Data("1\u{1F}\(source)\u{1F}\(item)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
