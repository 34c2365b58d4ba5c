import Domain
import Foundation
@testable import Presentation
import Testing

/// The dashboard's table logic, without a server: filters, search, order, summary, refresh history.
@Suite("dashboard: filters, order, summary and the refresh history")
struct DashboardFilterTests {
    static func source(
        _ id: String, _ status: SourceStatus?, provider: String = "feed", items: Int = 1, success: Date? = nil,
        error: String? = nil, duration: TimeInterval = 0.1
    ) -> WatchSourceState {
        var state = WatchSourceState(id: id)
        state.provider = provider
        state.lastSuccessAt = success
        if let status {
            let descriptor = SourceDescriptor(id: id, provider: provider, timeoutSeconds: 10, concurrency: 1)
            state.report = SourceReport(
                descriptor: descriptor, status: status,
                items: (0..<items).map { Item(kind: .entry, id: "\(id)-\($0)", title: "t\($0)") },
                error: error.map { SourceError(.network, $0) }, duration: duration)
        }
        return state
    }

    static let fleet = [
        source("a-ok", .ok, success: Date(timeIntervalSince1970: 300)),
        source("b-stale", .stale, success: Date(timeIntervalSince1970: 100)),
        source("c-error", .error, provider: "github", error: "connection refused"),
        source("d-loading", nil),
        source("e-timeout", .timeout, provider: "github", error: "took too long"),
        source("f-ok", .ok, items: 5, success: Date(timeIntervalSince1970: 200)),
    ]

    @Test("the default order puts failing sources first, then stale, loading, ok; manifest order within each")
    func severityFirst() {
        #expect(DashboardFilter().apply(Self.fleet).map(\.id) == ["c-error", "e-timeout", "b-stale", "d-loading", "a-ok", "f-ok"])
    }

    @Test("status, provider and text narrow the table; the text matches ids, providers and error messages, any case")
    func narrowing() {
        #expect(DashboardFilter(status: .failing).apply(Self.fleet).map(\.id) == ["c-error", "e-timeout"])
        #expect(DashboardFilter(status: .only(.error)).apply(Self.fleet).map(\.id) == ["c-error"])
        #expect(DashboardFilter(provider: "github").apply(Self.fleet).map(\.id) == ["c-error", "e-timeout"])
        #expect(DashboardFilter(text: "F-OK").apply(Self.fleet).map(\.id) == ["f-ok"])
        #expect(DashboardFilter(text: "refused").apply(Self.fleet).map(\.id) == ["c-error"])
        #expect(DashboardFilter(text: "nothing like it").apply(Self.fleet).isEmpty)
    }

    @Test("columns sort both ways; what never happened sorts first ascending")
    func sorting() {
        #expect(DashboardFilter(sort: .items, descending: true).apply(Self.fleet).first?.id == "f-ok")
        #expect(DashboardFilter(sort: .success).apply(Self.fleet).map(\.id).suffix(3) == ["b-stale", "f-ok", "a-ok"])
        #expect(DashboardFilter(sort: .id, descending: true).apply(Self.fleet).map(\.id).first == "f-ok")
    }

    @Test("links keep the filter, go back to page 1, and encode what they carry")
    func links() {
        let filter = DashboardFilter(text: "a b&c", status: .failing, provider: "feed", sort: .items, descending: true, page: 3)
        #expect(filter.query() == "?q=a%20b%26c&status=failing&provider=feed&sort=items&order=desc")
        #expect(filter.query { $0.page = 4 }.hasSuffix("&page=4"))
        #expect(DashboardFilter().query() == "")
    }

    @Test("the summary counts sources by status, items, and names the oldest success")
    func summary() {
        let summary = DashboardSummary(Self.fleet, newLastHour: 7)
        #expect(summary.sources == 6)
        #expect(summary.count(.ok) == 2 && summary.count(.stale) == 1 && summary.count(.loading) == 1)
        #expect(summary.failing == 2)
        #expect(summary.items == 1 + 1 + 1 + 1 + 5)
        #expect(summary.newLastHour == 7)
        #expect(summary.oldestSuccessID == "b-stale")
        #expect(summary.neverSucceeded == 2, "the failing two finished without ever succeeding")
    }

    @Test("the refresh history keeps the last 20, oldest first; the sparkline says it in words")
    func history() {
        var history = RefreshHistory()
        for index in 0..<25 { history.append(duration: Double(index), status: index == 24 ? .error : .ok) }
        #expect(history.refreshes.count == RefreshHistory.capacity)
        #expect(history.refreshes.first?.duration == 5)
        #expect(history.refreshes.last?.status == .error)
        let svg = Sparkline.svg(history)
        #expect(svg.contains("last 20 refreshes: 19 ok, 1 not ok"))
        #expect(svg.contains("class=\"bad\""))
        #expect(Sparkline.svg(nil).contains("–"))
    }

    @Test("the page: a real table with column headers, rows with status words, a pager past a page of sources")
    func page() {
        let many = (0..<(DashboardFilter.pageSize + 3)).map { Self.source("s\($0)", .ok) }
        let html = DashboardPage(summary: DashboardSummary(many, newLastHour: 0), filter: DashboardFilter())
            .page(many, histories: [:])
        #expect(html.contains("<th scope=\"col\"><a href=\"/?sort=items\">Items</a></th>"))
        #expect(html.components(separatedBy: "<tr data-source=").count - 1 == DashboardFilter.pageSize)
        #expect(html.contains("<span class=\"badge ok\">ok</span>"))
        #expect(html.contains("rel=\"next\" href=\"/?page=2\""))
        #expect(html.contains("<form class=\"filters\" method=\"get\" action=\"/\""))
    }
}
