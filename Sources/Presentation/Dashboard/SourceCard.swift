import Domain
import Foundation

/// One source's card on its own page (`/sources/{id}`): its status, error, health and items, each kind laid out
/// for what it is (weather as a city grid, issues with labels, movie posters, feed entries, records as a table);
/// `/cards/{id}` answers it alone for the script to swap in when the source changes.
public struct SourceCard: Sendable {
    /// Show the refresh button (the viewer may refresh).
    public var canRefresh: Bool
    public var now: Date
    /// Items shown (a page, not an archive: the rest is in `/api/items?source=`).
    public var itemLimit: Int

    public init(canRefresh: Bool, now: Date = Date(), itemLimit: Int = 500) {
        self.canRefresh = canRefresh
        self.now = now
        self.itemLimit = itemLimit
    }

    /// The source's page.
    public func page(_ source: WatchSourceState, history: RefreshHistory?) -> String {
        DashboardHTML.document(
            title: "aggregate: " + source.id, current: "",
            body: "<p class=\"meta\"><a href=\"/\">← all sources</a></p>" + card(source, history: history))
    }

    /// One source's card (also what `/cards/{id}` answers, for the script to swap in).
    public func card(_ source: WatchSourceState, history: RefreshHistory?) -> String {
        let id = Self.escape(source.id)
        var html = "<section class=\"card\" data-source=\"\(id)\" data-status=\"\(badgeStatus(source))\">"
        html += "<header><h2>\(id)</h2>\(badge(source))</header>"
        html += "<p class=\"meta\">\(Self.escape(meta(source))) \(Sparkline.svg(history))</p>"
        if canRefresh {
            html += "<form method=\"post\" action=\"/api/sources/\(Self.escape(Self.pathComponent(source.id)))/refresh\">"
                + "<button type=\"submit\" class=\"refresh\" data-refresh=\"\(id)\">Refresh</button></form>"
        }
        if let report = source.report {
            html += body(report.items, total: report.itemCount, id: source.id)
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
            text += " · " + DashboardHTML.age(now.timeIntervalSince(success))
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

    /// `items`: the first of the source's `total` latest items.
    private func body(_ items: [Item], total: Int, id: String) -> String {
        guard let kind = items.first?.kind else { return "<p class=\"empty\">No items.</p>" }
        let shown = Array(items.prefix(itemLimit))
        var html: String
        switch kind {
        case .weather: html = "<div class=\"cities\">" + shown.map(city).joined() + "</div>"
        case .issue: html = "<ul class=\"issues\">" + shown.map(issue).joined() + "</ul>"
        case .movie: html = "<div class=\"movies\">" + shown.map(movie).joined() + "</div>"
        case .entry: html = "<ul class=\"entries\">" + shown.map(entry).joined() + "</ul>"
        case .record: html = records(shown)
        }
        if total > shown.count {
            html += "<p class=\"more\">and \(total - shown.count) more: <a href=\"/api/items?source=\(Self.escape(Self.pathComponent(id)))\">"
                + "/api/items?source=\(Self.escape(id))</a></p>"
        }
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

    static func escape(_ text: String) -> String { DashboardHTML.escape(text) }

    static func webURL(_ text: String) -> String? { DashboardHTML.webURL(text) }

    static func pathComponent(_ id: String) -> String { DashboardHTML.pathComponent(id) }

    /// A label's own colour (`d73a4a`), only when it is six hex digits.
    static func hexColor(_ text: String) -> String? {
        text.count == 6 && text.allSatisfy(\.isHexDigit) ? "#" + text : nil
    }

    static func hashedColor(_ name: String) -> String {
        let hue = name.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF } % 360
        return "hsl(\(hue) 60% 45%)"
    }
}
