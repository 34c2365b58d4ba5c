import Domain
import Foundation

/// A source's state in one word, as the dashboard shows and filters it (`loading` until its first cycle).
public enum DashboardStatus: String, Sendable, CaseIterable {
    case error, timeout, stale, loading, skipped, ok

    init(_ source: WatchSourceState) {
        switch source.report?.status {
        case nil: self = .loading
        case .ok: self = .ok
        case .error: self = .error
        case .timeout: self = .timeout
        case .stale: self = .stale
        case .skipped: self = .skipped
        }
    }

    /// Ended in failure: what someone triaging looks at first.
    var isFailing: Bool { self == .error || self == .timeout }

    /// Failing first, then stale, loading, skipped, ok (the order of `allCases`).
    var severity: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// What the dashboard's table shows: the search (`q`: in the id, provider or error), the filters (`status`,
/// `provider`), the order (`sort`, `order`) and the page. Built by the server from the query (every value
/// checked there); every link the page makes keeps it.
public struct DashboardFilter: Sendable, Hashable {
    public enum Sort: String, Sendable, CaseIterable {
        /// Failing, then stale, loading, skipped, ok; manifest order within each.
        case status
        case id, provider, items
        /// The last successful refresh (never: first).
        case success
        case duration
        case next
    }

    /// `status=`: one status, or `failing` (error and timeout).
    public enum StatusFilter: Sendable, Hashable {
        case only(DashboardStatus)
        case failing

        public init?(_ text: String) {
            if text == "failing" {
                self = .failing
            } else if let status = DashboardStatus(rawValue: text) {
                self = .only(status)
            } else {
                return nil
            }
        }

        public var text: String {
            switch self {
            case .failing: "failing"
            case .only(let status): status.rawValue
            }
        }

        func matches(_ status: DashboardStatus) -> Bool {
            switch self {
            case .failing: status.isFailing
            case .only(let wanted): status == wanted
            }
        }
    }

    public var text: String?
    public var status: StatusFilter?
    public var provider: String?
    public var sort: Sort
    public var descending: Bool
    /// From 1.
    public var page: Int

    /// Rows per page: 10,000 sources are 40 pages, each a quick download; filters narrow first.
    public static let pageSize = 250

    public init(
        text: String? = nil, status: StatusFilter? = nil, provider: String? = nil, sort: Sort = .status,
        descending: Bool = false, page: Int = 1
    ) {
        self.text = text
        self.status = status
        self.provider = provider
        self.sort = sort
        self.descending = descending
        self.page = page
    }

    /// Nothing narrows the table.
    public var isEmpty: Bool { text == nil && status == nil && provider == nil }

    func matches(_ source: WatchSourceState) -> Bool {
        if let status, !status.matches(DashboardStatus(source)) { return false }
        if let provider, (source.provider ?? source.report?.descriptor.provider) != provider { return false }
        if let text {
            let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
            let haystacks = [source.id, source.provider ?? "", source.report?.error?.message ?? ""]
            if !haystacks.contains(where: { $0.range(of: text, options: options) != nil }) { return false }
        }
        return true
    }

    /// The matching sources in this order (every page).
    func apply(_ sources: [WatchSourceState]) -> [WatchSourceState] {
        let matching = sources.enumerated().filter { matches($0.element) }
        let sorted = matching.sorted { left, right in
            let order = compare(left.element, right.element)
            if order == 0 { return left.offset < right.offset }  // manifest order breaks ties, either direction
            return descending ? order > 0 : order < 0
        }
        return sorted.map(\.element)
    }

    /// -1, 0 or 1: `left` before, with, or after `right` in ascending order. What is missing (never succeeded,
    /// no next refresh) sorts first: it is what needs looking at.
    private func compare(_ left: WatchSourceState, _ right: WatchSourceState) -> Int {
        func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a > b ? 1 : 0) }
        switch sort {
        case .status: return order(DashboardStatus(left).severity, DashboardStatus(right).severity)
        case .id: return order(left.id, right.id)
        case .provider: return order(left.provider ?? "", right.provider ?? "")
        case .items: return order(left.report?.itemCount ?? -1, right.report?.itemCount ?? -1)
        case .success: return order(left.lastSuccessAt ?? .distantPast, right.lastSuccessAt ?? .distantPast)
        case .duration: return order(left.report?.duration ?? -1, right.report?.duration ?? -1)
        case .next: return order(left.next ?? .distantPast, right.next ?? .distantPast)
        }
    }

    /// The query string (with `?`, or empty) of this filter with `change` applied, for a link that keeps the
    /// rest; the page goes back to 1 unless the change sets it.
    public func query(_ change: (inout DashboardFilter) -> Void = { _ in }) -> String {
        var filter = self
        filter.page = 1
        change(&filter)
        var pairs: [(String, String)] = []
        if let text = filter.text { pairs.append(("q", text)) }
        if let status = filter.status { pairs.append(("status", status.text)) }
        if let provider = filter.provider { pairs.append(("provider", provider)) }
        if filter.sort != .status { pairs.append(("sort", filter.sort.rawValue)) }
        if filter.descending { pairs.append(("order", "desc")) }
        if filter.page != 1 { pairs.append(("page", String(filter.page))) }
        guard !pairs.isEmpty else { return "" }
        return "?" + pairs.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
