import Foundation

/// What a run's items are shaped by before any front end shows them (`--since`, `--sort`, `--dedupe`): the
/// same for the one-shot command, `watch` and a server, applied by the run's output (App's `CollectedOutput`,
/// `StreamedOutput`).
public struct ItemShaping: Sendable, Hashable {
    /// Only items dated after this (undated items are left out).
    public var since: Date?
    /// How items are ordered across sources (`--sort`).
    public var order: ItemOrder
    /// Items that are the same story in several sources appear once.
    public var dedupe: DedupeKey?

    /// Shaping by the given rules; none by default.
    public init(since: Date? = nil, order: ItemOrder = .source, dedupe: DedupeKey? = nil) {
        self.since = since
        self.order = order
        self.dedupe = dedupe
    }

    /// Nothing to do: every item passes in its source's order.
    public var isIdentity: Bool { since == nil && order == .source && dedupe == nil }
}

/// How items are ordered (`--sort`). Sources always keep manifest order in the report.
public enum ItemOrder: String, CaseIterable, Sendable {
    /// Each source's own order (feed order, page order, file order), sources in manifest order.
    case source
    /// Newest first across every selected source (a global merge); undated items last. Stable: equal dates
    /// keep manifest order, then each source's order.
    case date
}

/// What makes two items the same story (`--dedupe`).
public enum DedupeKey: String, CaseIterable, Sendable {
    /// The canonical URL: no tracking parameters (`utm_*`, `fbclid`, …), no fragment, no trailing slash,
    /// scheme and host case ignored, `http` and `https` alike.
    case url
    /// The title, case, accents, punctuation and spacing ignored.
    case title
    /// The item id (a feed entry's guid, an issue number), compared as it is.
    case id
}

/// Where an item sits in a report: its source's index and its index within that source's items.
public struct ItemPosition: Sendable, Hashable {
    /// The source's index in the report.
    public var source: Int
    /// The item's index within that source's items.
    public var item: Int

    /// The position of item `item` of source `source`.
    public init(source: Int, item: Int) {
        self.source = source
        self.item = item
    }
}

extension AggregateReport {
    /// Every item with its source id in output order (a date sort's global merge, else sources in manifest
    /// order), at most `limit` per source.
    public func itemsInOutputOrder(limit: Int? = nil) -> [(source: String, item: Item)] {
        let positions = merged ?? sources.indices.flatMap { index in
            sources[index].items.indices.map { ItemPosition(source: index, item: $0) }
        }
        var shown = [Int](repeating: 0, count: sources.count)
        var result: [(source: String, item: Item)] = []
        result.reserveCapacity(positions.count)
        for position in positions {
            if let limit {
                guard shown[position.source] < limit else { continue }
                shown[position.source] += 1
            }
            let source = sources[position.source]
            result.append((source.id, source.items[position.item]))
        }
        return result
    }
}
