import Domain
import Foundation

/// Paging by source (`/api/report`, `/api/sources`): `limit` sources per page, `cursor` (opaque: where the
/// previous page ended, from its `Link` header). Every problem names its parameter.
struct SourcePage: Sendable {
    /// The route and its limits.
    struct Route: Sendable {
        var path: String
        var defaultLimit: Int
        var maxLimit: Int

        /// Each source with its items: 100 a page, 1,000 at most.
        static let report = Route(path: "/api/report", defaultLimit: 100, maxLimit: 1_000)
        /// Each source's state, a few hundred bytes: 1,000 a page, 10,000 at most.
        static let sources = Route(path: "/api/sources", defaultLimit: 1_000, maxLimit: 10_000)
    }

    let route: Route
    var limit: Int
    /// The id of the last source of the previous page.
    var after: String?

    init(_ parameters: [(name: String, value: String)], route: Route) throws(RequestProblem) {
        self.route = route
        limit = route.defaultLimit
        var given: Set<String> = []
        for (name, value) in parameters {
            guard given.insert(name).inserted else { throw RequestProblem(parameter: name, "given more than once") }
            switch name {
            case "limit":
                guard let number = Int(value), (1...route.maxLimit).contains(number) else {
                    throw RequestProblem(parameter: name, "a whole number from 1 to \(route.maxLimit)")
                }
                limit = number
            case "cursor":
                guard let cursor = ItemCursor(value), cursor.item.isEmpty else {
                    throw RequestProblem(parameter: name, "not a cursor this server gave")
                }
                after = cursor.source
            default:
                throw RequestProblem(parameter: name, "unknown parameter (known: cursor, limit)")
            }
        }
    }

    /// This page's sources and, when more follow, the id of its last one.
    func slice<Source>(_ sources: [Source], id: (Source) -> String) throws(RequestProblem) -> ([Source], next: String?) {
        var start = 0
        if let after {
            guard let index = sources.firstIndex(where: { id($0) == after }) else {
                throw RequestProblem(parameter: "cursor", "the source it continues from is gone; start again without a cursor")
            }
            start = index + 1
        }
        let end = min(sources.count, start + limit)
        let page = Array(sources[start..<end])
        return (page, end < sources.count ? page.last.map(id) : nil)
    }

    /// The `Link` header naming the next page.
    func link(after id: String) -> String {
        var path = route.path + "?cursor=" + ItemCursor(source: id, item: "").text
        if limit != route.defaultLimit { path += "&limit=\(limit)" }
        return "<\(path)>; rel=\"next\""
    }
}

/// Where a page of sources ended: the id of its last source, opaque to clients (base64url).
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
