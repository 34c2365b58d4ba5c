import Foundation

/// Keeps or drops a source's items before anything else sees them (the manifest's `filter`): the run engine
/// applies it before the item history, `--new`, the sinks and the output, so a dropped item is never announced.
public protocol ItemFilter: Sendable {
    /// The items of `source` it keeps, in their order, with how many it dropped.
    func apply(_ items: [Item], source: String) -> FilteredItems
}

/// What a filter did to one batch.
public struct FilteredItems: Sendable, Hashable {
    /// The items kept, in their order.
    public var kept: [Item]
    /// How many were dropped.
    public var dropped: Int
    /// Items the filter could not judge (a jq error on them): kept, and counted here.
    public var failed: Int
    /// The first such failure's message.
    public var failure: String?

    /// A result; nothing failed unless said.
    public init(kept: [Item], dropped: Int, failed: Int = 0, failure: String? = nil) {
        self.kept = kept
        self.dropped = dropped
        self.failed = failed
        self.failure = failure
    }
}

/// Filters applied one after another (the manifest's `defaults.filter`, then the source's own): an item is kept
/// only when every one keeps it.
public struct ItemFilterChain: ItemFilter {
    /// The filters, in the order they apply.
    public let filters: [any ItemFilter]

    /// A chain of `filters`.
    public init(_ filters: [any ItemFilter]) {
        self.filters = filters
    }

    /// Applies each filter to what the ones before kept; the counts add up, the first failure is kept.
    public func apply(_ items: [Item], source: String) -> FilteredItems {
        var result = FilteredItems(kept: items, dropped: 0)
        for filter in filters {
            guard !result.kept.isEmpty else { break }
            let step = filter.apply(result.kept, source: source)
            result.kept = step.kept
            result.dropped += step.dropped
            result.failed += step.failed
            result.failure = result.failure ?? step.failure
        }
        return result
    }
}

/// A source's filter over a whole run: what it dropped and could not judge so far, batch after batch.
public struct ItemFilterTally: Sendable, Hashable {
    /// Items dropped so far.
    public var dropped = 0
    /// Items the filter could not judge so far (kept).
    public var failed = 0
    /// The first failure's message.
    public var failure: String?

    /// Nothing counted yet.
    public init() {}

    /// Adds one batch's counts.
    public mutating func add(_ result: FilteredItems) {
        dropped += result.dropped
        failed += result.failed
        failure = failure ?? result.failure
    }

    /// The warning a source carries when its filter could not judge some items (they were kept).
    public var warning: String? {
        guard failed > 0 else { return nil }
        return "the filter could not judge \(failed) item\(failed == 1 ? "" : "s") and kept "
            + "\(failed == 1 ? "it" : "them"): \(failure ?? "no message")"
    }
}
