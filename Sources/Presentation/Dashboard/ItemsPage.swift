import Domain
import Foundation

/// `/items`: the newest items across every source, a page at a time (what a reader opens first).
public struct NewestItemsPage: Sendable {
    /// Items per page.
    public static let pageSize = 50
    /// Pages offered: the newest 1,000 items; older ones are in `/api/items?sort=date` (cursor-paged).
    public static let maxPage = 20

    public var page: Int

    public init(page: Int) {
        self.page = page
    }

    /// `items`: this page's, newest first; `hasMore`: a next page exists.
    public func page(_ items: [(source: String, item: Item)], hasMore: Bool) -> String {
        var body = "<h2>Newest items</h2>"
        if items.isEmpty {
            body += "<p class=\"empty\">No items\(page > 1 ? " on this page" : " yet").</p>"
        } else {
            body += "<table id=\"items\"><thead><tr><th scope=\"col\">Title</th><th scope=\"col\">Source</th><th scope=\"col\">Date</th></tr></thead><tbody>"
            for (source, item) in items {
                let title = item.url.flatMap { DashboardHTML.webURL($0.absoluteString) }.map {
                    "<a href=\"\(DashboardHTML.escape($0))\" rel=\"noopener noreferrer\">\(DashboardHTML.escape(item.title))</a>"
                } ?? DashboardHTML.escape(item.title)
                body += "<tr data-item=\"\(DashboardHTML.escape(item.id))\"><td>\(title)</td><td>\(DashboardHTML.sourceLink(source))</td>"
                    + "<td>\(DashboardHTML.time(item.date))</td></tr>"
            }
            body += "</tbody></table>"
        }
        var pager = ""
        if page > 1 { pager += "<a rel=\"prev\" href=\"/items\(page == 2 ? "" : "?page=\(page - 1)")\">← newer</a> " }
        pager += "page \(page)"
        if hasMore {
            pager += page < Self.maxPage
                ? " <a rel=\"next\" href=\"/items?page=\(page + 1)\">older →</a>"
                : " · older items: <a href=\"/api/items?sort=date\">/api/items?sort=date</a>"
        }
        body += "<nav class=\"pager\" aria-label=\"Pages\">\(pager)</nav>"
        return DashboardHTML.document(title: "aggregate: newest items", current: "/items", body: body)
    }
}
