import Domain
import Foundation

/// `aggregate serve`'s front page, built to triage a fleet: the summary (sources by status, items, new in the
/// last hour, the oldest successful refresh), the sources that need attention, then a compact table of sources
/// (failing and stale first) that the search and filters (a form, applied by the server) narrow and the column
/// headers sort, a page at a time. Server-rendered: it works without JavaScript; `dashboard.js` updates rows and
/// the summary in place as sources change.
public struct DashboardPage: Sendable {
    public var summary: DashboardSummary
    public var filter: DashboardFilter
    public var now: Date
    /// Show the log-out button (the viewer came in through the login form's session).
    public var canLogOut: Bool

    /// Sources listed under "Needs attention" (the rest: the filter link).
    static let attentionLimit = 20

    public init(summary: DashboardSummary, filter: DashboardFilter, canLogOut: Bool = false, now: Date = Date()) {
        self.summary = summary
        self.canLogOut = canLogOut
        self.filter = filter
        self.now = now
    }

    public func page(_ sources: [WatchSourceState], histories: [String: RefreshHistory]) -> String {
        let rows = filter.apply(sources)
        let pages = max(1, (rows.count + DashboardFilter.pageSize - 1) / DashboardFilter.pageSize)
        let page = min(filter.page, pages)
        let shown = rows.dropFirst((page - 1) * DashboardFilter.pageSize).prefix(DashboardFilter.pageSize)
        var body = summarySection(sources)
        body += form(sources)
        body += "<p class=\"meta\" id=\"shown\">" + shownText(matching: rows.count, shown: shown.count, page: page) + "</p>"
        body += table(Array(shown), histories: histories)
        body += pager(page: page, pages: pages)
        return DashboardHTML.document(title: title, current: "/", body: body, canLogOut: canLogOut)
    }

    /// The page's title: the failing count first, so a browser tab says it.
    var title: String {
        summary.failing > 0 ? "(\(summary.failing) failing) aggregate" : "aggregate"
    }

    /// The summary and the sources needing attention (also `/summary` alone, for the script to swap in).
    public func summarySection(_ sources: [WatchSourceState]) -> String {
        var html = "<section id=\"summary\" aria-label=\"Summary\" data-failing=\"\(summary.failing)\"><dl class=\"counts\">"
        func count(_ label: String, _ value: String, _ href: String?, _ key: String) {
            let text = href.map { "<a href=\"\($0)\">\(value)</a>" } ?? value
            html += "<div class=\"count count-\(key)\" data-count=\"\(key)\"><dt>\(label)</dt><dd>\(text)</dd></div>"
        }
        count("sources", String(summary.sources), "/", "sources")
        for status in DashboardStatus.allCases {
            let number = summary.count(status)
            count(status.rawValue, String(number), number > 0 ? href({ $0.status = .only(status) }) : nil, status.rawValue)
        }
        count("items", String(summary.items), "/items", "items")
        count("new in the last hour", String(summary.newLastHour), nil, "new")
        if let id = summary.oldestSuccessID, let date = summary.oldestSuccessDate {
            count("oldest success", DashboardHTML.age(now.timeIntervalSince(date)).replacingOccurrences(of: " old", with: " ago")
                + " <small>(" + DashboardHTML.sourceLink(id) + ")</small>", nil, "oldest")
        }
        if summary.neverSucceeded > 0 { count("never succeeded", String(summary.neverSucceeded), nil, "never") }
        html += "</dl>"
        html += attention(sources)
        return html + "</section>"
    }

    /// Failing, then stale sources, each with its status in words and its error.
    private func attention(_ sources: [WatchSourceState]) -> String {
        let needing = DashboardFilter().apply(sources).filter { source in
            let status = DashboardStatus(source)
            return status.isFailing || status == .stale
        }
        guard !needing.isEmpty else { return "<p id=\"attention\" class=\"calm\">Every source that finished is ok.</p>" }
        var html = "<section id=\"attention\" aria-labelledby=\"attention-title\"><h2 id=\"attention-title\">Needs attention "
            + "<small>(\(summary.failing) failing, \(summary.count(.stale)) stale)</small></h2><ul>"
        for source in needing.prefix(Self.attentionLimit) {
            let status = DashboardStatus(source)
            html += "<li data-source=\"\(DashboardHTML.escape(source.id))\"><span class=\"badge \(status.rawValue)\">\(status.rawValue)</span> "
                + DashboardHTML.sourceLink(source.id)
            if let error = source.report?.error {
                html += " <span class=\"error\">\(DashboardHTML.escape(error.kind.rawValue)): \(DashboardHTML.escape(String(error.message.prefix(160))))</span>"
            }
            html += "</li>"
        }
        html += "</ul>"
        if needing.count > Self.attentionLimit {
            html += "<p class=\"more\"><a href=\"\(href { $0.status = .failing })\">all \(summary.failing) failing</a> · "
                + "<a href=\"\(href { $0.status = .only(.stale) })\">all \(summary.count(.stale)) stale</a></p>"
        }
        return html + "</section>"
    }

    private func form(_ sources: [WatchSourceState]) -> String {
        var providers: [String: Int] = [:]
        for source in sources { providers[source.provider ?? source.report?.descriptor.provider ?? "", default: 0] += 1 }
        var html = "<form class=\"filters\" method=\"get\" action=\"/\" role=\"search\" aria-label=\"Find sources\">"
        html += "<label>Search <input type=\"search\" name=\"q\" value=\"\(DashboardHTML.escape(filter.text ?? ""))\" placeholder=\"id, provider or error\"></label> "
        html += "<label>Status <select name=\"status\"><option value=\"\">any</option>"
        let statuses = ["failing"] + DashboardStatus.allCases.map(\.rawValue)
        for status in statuses {
            let count = status == "failing" ? summary.failing : summary.count(DashboardStatus(rawValue: status) ?? .ok)
            html += "<option value=\"\(status)\"\(filter.status?.text == status ? " selected" : "")>\(status) (\(count))</option>"
        }
        html += "</select></label> <label>Provider <select name=\"provider\"><option value=\"\">any</option>"
        for (provider, count) in providers.sorted(by: { $0.key < $1.key }) where !provider.isEmpty {
            let value = DashboardHTML.escape(provider)
            html += "<option value=\"\(value)\"\(filter.provider == provider ? " selected" : "")>\(value) (\(count))</option>"
        }
        html += "</select></label>"
        if filter.sort != .status { html += "<input type=\"hidden\" name=\"sort\" value=\"\(filter.sort.rawValue)\">" }
        if filter.descending { html += "<input type=\"hidden\" name=\"order\" value=\"desc\">" }
        html += " <button type=\"submit\">Filter</button>"
        if !filter.isEmpty { html += " <a href=\"\(href { $0.text = nil; $0.status = nil; $0.provider = nil })\">clear</a>" }
        return html + "</form>"
    }

    private func shownText(matching: Int, shown: Int, page: Int) -> String {
        let total = HumanFormat.count(matching, "source")
        guard matching > 0 else { return "No source matches." }
        guard shown < matching else { return total + (filter.isEmpty ? "" : " match") }
        let first = (page - 1) * DashboardFilter.pageSize + 1
        return "\(total)\(filter.isEmpty ? "" : " match"), \(first)–\(first + shown - 1) shown"
    }

    private func table(_ rows: [WatchSourceState], histories: [String: RefreshHistory]) -> String {
        let columns: [(String, DashboardFilter.Sort?)] = [
            ("Source", .id), ("Status", .status), ("Provider", .provider), ("Items", .items),
            ("Last success", .success), ("Duration", .duration), ("Next refresh", .next), ("Last refreshes", nil),
        ]
        var html = "<table id=\"sources\"><caption class=\"visually-hidden\">Sources, \(filter.sort.rawValue) order</caption><thead><tr>"
        for (title, sort) in columns {
            guard let sort else {
                html += "<th scope=\"col\">\(title)</th>"
                continue
            }
            let current = filter.sort == sort
            let descending = current ? !filter.descending : false
            let ariaSort = current ? " aria-sort=\"\(filter.descending ? "descending" : "ascending")\"" : ""
            let arrow = current ? (filter.descending ? " ↓" : " ↑") : ""
            html += "<th scope=\"col\"\(ariaSort)><a href=\"\(href { $0.sort = sort; $0.descending = descending })\">\(title)\(arrow)</a></th>"
        }
        html += "</tr></thead><tbody>"
        for source in rows { html += row(source, history: histories[source.id]) }
        return html + "</tbody></table>"
    }

    /// A source's row (the script keeps its cells up to date from `source` events, by their classes).
    func row(_ source: WatchSourceState, history: RefreshHistory?) -> String {
        let status = DashboardStatus(source)
        var statusText = status.rawValue
        if let error = source.report?.error { statusText += " <small>(\(DashboardHTML.escape(error.kind.rawValue)))</small>" }
        return "<tr data-source=\"\(DashboardHTML.escape(source.id))\" data-status=\"\(status.rawValue)\"\(source.isRunning ? " data-running=\"true\"" : "")>"
            + "<th scope=\"row\">\(DashboardHTML.sourceLink(source.id))</th>"
            + "<td class=\"status\"><span class=\"badge \(status.rawValue)\">\(statusText)</span></td>"
            + "<td class=\"provider\">\(DashboardHTML.escape(source.provider ?? ""))</td>"
            + "<td class=\"items num\">\(source.report.map { String($0.itemCount) } ?? "–")</td>"
            + "<td class=\"success\">\(DashboardHTML.time(source.lastSuccessAt))</td>"
            + "<td class=\"duration num\">\(source.report.map { HumanFormat.duration($0.duration) } ?? "–")</td>"
            + "<td class=\"next\">\(DashboardHTML.time(source.next))</td>"
            + "<td class=\"health\">\(Sparkline.svg(history))</td></tr>"
    }

    /// `/` with this filter changed by `change`, escaped for an attribute.
    private func href(_ change: (inout DashboardFilter) -> Void) -> String {
        DashboardHTML.escape("/" + filter.query(change))
    }

    private func pager(page: Int, pages: Int) -> String {
        guard pages > 1 else { return "" }
        var html = "<nav class=\"pager\" aria-label=\"Pages\">"
        if page > 1 { html += "<a rel=\"prev\" href=\"\(href { $0.page = page - 1 })\">← previous</a> " }
        html += "page \(page) of \(pages)"
        if page < pages { html += " <a rel=\"next\" href=\"\(href { $0.page = page + 1 })\">next →</a>" }
        return html + "</nav>"
    }
}
