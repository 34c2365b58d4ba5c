import Domain
import Foundation

/// `/items`: the archive's items across every source, newest first, or those matching a search (best match
/// first, the matching passage marked), a page at a time with a link to the next (what a reader opens first).
public struct ItemsPage: Sendable {
    /// Items per page.
    public static let pageSize = 50

    /// The search typed (nil: the newest items).
    public var query: String?
    /// Whether this page continues an earlier one (then it links back to the first).
    public var isContinued: Bool

    public init(query: String?, isContinued: Bool) {
        self.query = query
        self.isContinued = isContinued
    }

    /// `items`: this page's, in order; `next`: the cursor of the next page, when there is one.
    public func page(_ items: [ArchivedItem], next: String?) -> String {
        var body = query.map { "<h2>Items matching “\(DashboardHTML.escape($0))”</h2>" } ?? "<h2>Newest items</h2>"
        if items.isEmpty {
            body += "<p class=\"empty\">\(query == nil ? "No items" : "Nothing matches")\(isContinued ? " on this page" : query == nil ? " yet" : "").</p>"
        } else {
            body += "<table id=\"items\"><thead><tr><th scope=\"col\">Title</th><th scope=\"col\">Source</th><th scope=\"col\">Date</th></tr></thead><tbody>"
            for entry in items {
                let item = entry.item
                let title = item.url.flatMap { DashboardHTML.webURL($0.absoluteString) }.map {
                    "<a href=\"\(DashboardHTML.escape($0))\" rel=\"noopener noreferrer\">\(DashboardHTML.escape(item.title))</a>"
                } ?? DashboardHTML.escape(item.title)
                let snippet = entry.snippet.map { "<p class=\"snippet\">\(Self.marked($0))</p>" } ?? ""
                body += "<tr data-item=\"\(DashboardHTML.escape(item.id))\"><td>\(title)\(snippet)</td><td>\(DashboardHTML.sourceLink(entry.sourceID))</td>"
                    + "<td>\(DashboardHTML.time(item.date ?? entry.firstSeenAt))</td></tr>"
            }
            body += "</tbody></table>"
        }
        var pager: [String] = []
        let search = query.map { "q=" + Self.queryValue($0) }
        if isContinued { pager.append("<a rel=\"first\" href=\"/items\(search.map { "?" + $0 } ?? "")\">← first page</a>") }
        if let next {
            let parameters = (search.map { [$0] } ?? []) + ["cursor=" + Self.queryValue(next)]
            pager.append("<a rel=\"next\" href=\"/items?\(DashboardHTML.escape(parameters.joined(separator: "&")))\">\(query == nil ? "older" : "more") →</a>")
        }
        if !pager.isEmpty { body += "<nav class=\"pager\" aria-label=\"Pages\">\(pager.joined(separator: " · "))</nav>" }
        let title = query.map { "aggregate: search “\($0)”" } ?? "aggregate: newest items"
        return DashboardHTML.document(title: title, current: "/items", body: body, search: query)
    }

    /// The search box in every page's header, holding the search shown.
    static func searchForm(_ query: String?) -> String {
        "<form class=\"search\" role=\"search\" method=\"get\" action=\"/items\"><input type=\"search\" name=\"q\" "
            + "aria-label=\"Search items\" placeholder=\"Search items: words, &quot;phrases&quot;, prefix*, OR, -left out\""
            + (query.map { " value=\"\(DashboardHTML.escape($0))\"" } ?? "") + "> <button type=\"submit\">Search</button></form>"
    }

    /// A snippet with its marked matches in `<mark>`, everything else escaped (the marks are control characters,
    /// which escaping drops: the text is cut at them first).
    static func marked(_ snippet: String) -> String {
        var html = ""
        for (index, part) in snippet.split(separator: Character(ArchivedItem.highlight.start), omittingEmptySubsequences: false).enumerated() {
            guard index > 0 else {
                html += DashboardHTML.escape(String(part))
                continue
            }
            let pieces = part.split(separator: Character(ArchivedItem.highlight.end), maxSplits: 1, omittingEmptySubsequences: false)
            html += "<mark>" + DashboardHTML.escape(String(pieces[0])) + "</mark>"
            if pieces.count > 1 { html += DashboardHTML.escape(String(pieces[1])) }
        }
        return html
    }

    private static func queryValue(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
