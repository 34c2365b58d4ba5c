import Domain
import Foundation

/// What every dashboard page shares: the document around a page's body, and the escaping and link rules.
///
/// Every text from a source is escaped (a feed summary's HTML is never inserted; it is reduced to its words);
/// only `http(s)` links and images are used.
enum DashboardHTML {
    /// A whole page: the style sheet, the script (live updates), the feeds, and the navigation.
    /// `canLogOut`: the viewer came in through the login form's session, so the header offers to end it.
    static func document(title: String, current: String, body: String, canLogOut: Bool = false, search: String? = nil) -> String {
        func nav(_ href: String, _ text: String) -> String {
            "<a href=\"\(href)\"\(href == current ? " aria-current=\"page\"" : "")>\(text)</a>"
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <link rel="stylesheet" href="/dashboard.css">
            <link rel="alternate" type="application/atom+xml" title="aggregate (Atom)" href="/feed.atom">
            <link rel="alternate" type="application/feed+json" title="aggregate (JSON Feed)" href="/feed.json">
            <script src="/dashboard.js" defer></script>
            </head>
            <body>
            <header><h1><a href="/">aggregate</a></h1><nav aria-label="Views">\(nav("/", "Sources")) · \(nav("/items", "Newest items")) · <a href="/feed.atom">Atom</a> · <a href="/api/sources">JSON</a></nav>\(ItemsPage.searchForm(search))\(canLogOut ? #"<form class="logout" method="post" action="/logout"><button type="submit">Log out</button></form>"# : "")</header>
            <main>
            \(body)
            </main>
            </body>
            </html>

            """
    }

    static func escape(_ text: String) -> String {
        XMLOutput.escape(text, quotes: true).replacingOccurrences(of: "'", with: "&#39;")
    }

    /// Only http and https addresses become links or images (never `javascript:` or `data:`).
    static func webURL(_ text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return nil
        }
        return url.absoluteString
    }

    static func pathComponent(_ id: String) -> String {
        DashboardFilter.encode(id)
    }

    /// The source's own page.
    static func sourceLink(_ id: String) -> String {
        "<a href=\"/sources/\(escape(pathComponent(id)))\">\(escape(id))</a>"
    }

    /// `<time>` with the machine date (the script rewrites it live) and the people one.
    static func time(_ date: Date?) -> String {
        guard let date else { return "<time>–</time>" }
        return "<time datetime=\"\(ISO8601.string(from: date))\">\(HumanFormat.date(date))</time>"
    }

    static func age(_ seconds: TimeInterval) -> String {
        let seconds = max(0, Int(seconds))
        if seconds < 120 { return "\(seconds) s old" }
        if seconds < 7200 { return "\(seconds / 60) min old" }
        return "\(seconds / 3600) h old"
    }
}
