import Domain
import Foundation

/// `aggregate serve`'s page: one card per source in manifest order, each laid out for its kind of items, all
/// server-rendered (it works without JavaScript); `dashboard.js` refreshes a card when its source changes.
///
/// Every text from a source is escaped (a feed summary's HTML is never inserted; it is reduced to its words);
/// only `http(s)` links and images are used.
public struct DashboardPage: Sendable {
    /// Show the refresh buttons (the viewer is authenticated).
    public var canRefresh: Bool
    /// Show the log-out button (the viewer came in through the login form's session).
    public var canLogOut: Bool
    public var now: Date

    public init(canRefresh: Bool, canLogOut: Bool = false, now: Date = Date()) {
        self.canRefresh = canRefresh
        self.canLogOut = canLogOut
        self.now = now
    }

    /// Items shown per card (a wall screen, not an archive).
    static let itemsPerCard = 12

    public func page(_ sources: [WatchSourceState]) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="refresh" content="300">
        <title>aggregate</title>
        <link rel="stylesheet" href="/dashboard.css">
        <link rel="alternate" type="application/atom+xml" title="aggregate (Atom)" href="/feed.atom">
        <link rel="alternate" type="application/feed+json" title="aggregate (JSON Feed)" href="/feed.json">
        <script src="/dashboard.js" defer></script>
        </head>
        <body>
        <header><h1>aggregate</h1><p class="meta">\(sources.count) source\(sources.count == 1 ? "" : "s") · <a href="/api/report">JSON</a> · <a href="/feed.atom">Atom</a>\(canLogOut ? #" · <form class="logout" method="post" action="/logout"><button type="submit">Log out</button></form>"# : "")</p></header>
        <main id="cards">
        \(sources.map(card).joined(separator: "\n"))
        </main>
        </body>
        </html>

        """
    }

    /// One source's card (also what `/cards/{id}` answers, for the script to swap in).
    public func card(_ source: WatchSourceState) -> String {
        let id = Self.escape(source.id)
        var html = "<section class=\"card\" data-source=\"\(id)\" data-status=\"\(badgeStatus(source))\">"
        html += "<header><h2>\(id)</h2>\(badge(source))</header>"
        html += "<p class=\"meta\">\(Self.escape(meta(source)))</p>"
        if canRefresh {
            html += "<form method=\"post\" action=\"/api/sources/\(Self.escape(Self.pathComponent(source.id)))/refresh\">"
                + "<button type=\"submit\" class=\"refresh\" data-refresh=\"\(id)\">Refresh</button></form>"
        }
        if let report = source.report {
            html += body(report.items)
        }
        return html + "</section>"
    }

    private func badgeStatus(_ source: WatchSourceState) -> String {
        guard let report = source.report else { return "loading" }
        return report.status.rawValue
    }

    private func badge(_ source: WatchSourceState) -> String {
        guard let report = source.report else { return "<span class=\"badge loading\">loading</span>" }
        var text = report.status.rawValue
        if report.status == .stale, let success = source.lastSuccessAt ?? source.finishedAt {
            text += " · " + Self.age(now.timeIntervalSince(success))
        }
        var html = "<span class=\"badge \(report.status.rawValue)\">\(Self.escape(text))</span>"
        if source.isRunning { html += "<span class=\"badge loading\">refreshing</span>" }
        if let error = report.error {
            html += "<p class=\"error\">\(Self.escape(error.kind.rawValue)): \(Self.escape(error.message))</p>"
        }
        return html
    }

    private func meta(_ source: WatchSourceState) -> String {
        var parts: [String] = []
        if let provider = source.provider ?? source.report?.descriptor.provider { parts.append(provider) }
        if let report = source.report { parts.append(HumanFormat.count(report.itemCount, "item")) }
        if let finished = source.finishedAt { parts.append("updated " + HumanFormat.date(finished)) }
        if let next = source.next { parts.append("next " + HumanFormat.date(next)) }
        return parts.joined(separator: " · ")
    }

    private func body(_ items: [Item]) -> String {
        guard let kind = items.first?.kind else { return "<p class=\"empty\">No items.</p>" }
        let shown = Array(items.prefix(Self.itemsPerCard))
        var html: String
        switch kind {
        case .weather: html = "<div class=\"cities\">" + shown.map(city).joined() + "</div>"
        case .issue: html = "<ul class=\"issues\">" + shown.map(issue).joined() + "</ul>"
        case .movie: html = "<div class=\"movies\">" + shown.map(movie).joined() + "</div>"
        case .entry: html = "<ul class=\"entries\">" + shown.map(entry).joined() + "</ul>"
        case .record: html = records(shown)
        }
        if items.count > shown.count { html += "<p class=\"more\">and \(items.count - shown.count) more</p>" }
        return html
    }

    private func city(_ item: Item) -> String {
        let columns = KindColumn.columns(for: .weather, items: [item])
        func value(_ header: String) -> String { Self.escape(columns.first { $0.header == header }?.value(item) ?? "") }
        return "<div class=\"city\" data-item=\"\(Self.escape(item.id))\"><span class=\"name\">\(value("CITY"))</span>"
            + "<span class=\"temp\">\(value("TEMP"))</span><span class=\"condition\">\(value("CONDITION"))</span></div>"
    }

    private func issue(_ item: Item) -> String {
        let columns = KindColumn.columns(for: .issue, items: [item])
        func value(_ header: String) -> String { columns.first { $0.header == header }?.value(item) ?? "" }
        let labels = (item.fields["labels"]?.arrayValue ?? []).compactMap { label -> String? in
            guard let name = label.stringValue ?? label.objectValue?["name"]?.stringValue else { return nil }
            let color = label.objectValue?["color"]?.stringValue.flatMap(Self.hexColor) ?? Self.hashedColor(name)
            return "<span class=\"chip\" style=\"--chip: \(color)\">\(Self.escape(name))</span>"
        }
        return "<li data-item=\"\(Self.escape(item.id))\"><span class=\"number\">\(Self.escape(value("#")))</span> "
            + link(item.title, item.url) + " " + labels.joined() + " <time>\(Self.escape(value("UPDATED")))</time></li>"
    }

    private func movie(_ item: Item) -> String {
        let columns = KindColumn.columns(for: .movie, items: [item])
        func value(_ header: String) -> String { Self.escape(columns.first { $0.header == header }?.value(item) ?? "") }
        var html = "<figure class=\"movie\" data-item=\"\(Self.escape(item.id))\">"
        if let poster = item.fields["posterURL"]?.stringValue.flatMap(Self.webURL) {
            html += "<img src=\"\(Self.escape(poster))\" alt=\"\" loading=\"lazy\">"
        }
        return html + "<figcaption>\(link(item.title, item.url)) <span class=\"year\">\(value("YEAR"))</span>"
            + " <span class=\"rating\">\(value("RATING"))</span></figcaption></figure>"
    }

    private func entry(_ item: Item) -> String {
        let feed = item.fields["feedTitle"]?.stringValue ?? item.subtitle ?? ""
        return "<li data-item=\"\(Self.escape(item.id))\">\(link(item.title, item.url)) <span class=\"feed\">\(Self.escape(feed))</span>"
            + " <time>\(Self.escape(item.date.map(HumanFormat.date) ?? ""))</time></li>"
    }

    private func records(_ items: [Item]) -> String {
        "<table class=\"records\"><thead><tr><th>Title</th><th>Date</th></tr></thead><tbody>"
            + items.map { item in
                "<tr data-item=\"\(Self.escape(item.id))\"><td>\(link(item.title, item.url))</td>"
                    + "<td>\(Self.escape(item.date.map(HumanFormat.date) ?? ""))</td></tr>"
            }.joined() + "</tbody></table>"
    }

    private func link(_ title: String, _ url: URL?) -> String {
        guard let href = url.flatMap({ Self.webURL($0.absoluteString) }) else { return "<span class=\"title\">\(Self.escape(title))</span>" }
        return "<a class=\"title\" href=\"\(Self.escape(href))\" rel=\"noopener noreferrer\">\(Self.escape(title))</a>"
    }

    // MARK: - Text

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
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? id
    }

    /// A label's own colour (`d73a4a`), only when it is six hex digits.
    static func hexColor(_ text: String) -> String? {
        text.count == 6 && text.allSatisfy(\.isHexDigit) ? "#" + text : nil
    }

    static func hashedColor(_ name: String) -> String {
        let hue = name.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF } % 360
        return "hsl(\(hue) 60% 45%)"
    }

    static func age(_ seconds: TimeInterval) -> String {
        let seconds = max(0, Int(seconds))
        if seconds < 120 { return "\(seconds) s old" }
        if seconds < 7200 { return "\(seconds / 60) min old" }
        return "\(seconds / 3600) h old"
    }
}
