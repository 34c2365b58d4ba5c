import Foundation

/// Applies `ItemShaping` to a finished run: `--since`, then `--dedupe` across every source, then `--sort date`
/// as one merge of every source. App's `CollectedOutput` calls it for every front end that collects the report.
///
/// Dedupe keeps, of each group of items with the same key, the one with the most fields (ties: the first in
/// manifest order, then its source's order), in its own source at its own place; the others are dropped
/// and the kept item's `fields.alsoIn` lists their sources (manifest order, without the kept item's own).
/// Output that streams uses `StreamingItemFilter` instead.
public struct ShapeItemsUseCase: Sendable {
    /// The rules applied.
    public let shaping: ItemShaping

    /// Shapes by `shaping`.
    public init(_ shaping: ItemShaping) {
        self.shaping = shaping
    }

    /// The report with its items filtered, deduplicated and ordered as `shaping` says.
    public func execute(_ report: AggregateReport) -> AggregateReport {
        guard !shaping.isIdentity else { return report }
        var shaped = report
        if let since = shaping.since {
            for index in shaped.sources.indices {
                shaped.sources[index].items.removeAll { item in item.date.map { $0 <= since } ?? true }
            }
        }
        if let dedupe = shaping.dedupe { deduplicate(&shaped, by: dedupe) }
        if shaping.order == .date { sortByDate(&shaped) }
        return shaped
    }

    private func deduplicate(_ report: inout AggregateReport, by dedupe: DedupeKey) {
        // Group every item by key, in output order.
        var groups: [String: [ItemPosition]] = [:]
        var order: [String] = []
        for (sourceIndex, source) in report.sources.enumerated() {
            for (itemIndex, item) in source.items.enumerated() {
                guard let key = ItemIdentity.key(of: item, by: dedupe) else { continue }
                let position = ItemPosition(source: sourceIndex, item: itemIndex)
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(position)
            }
        }
        var dropped = Set<ItemPosition>()
        for key in order {
            guard let group = groups[key], group.count > 1 else { continue }
            let richness = group.map { ItemIdentity.richness(of: report.sources[$0.source].items[$0.item]) }
            let kept = group[richness.indices.max { richness[$0] < richness[$1] }!]  // ties: the first
            var alsoIn: [String] = []
            for position in group where position != kept {
                dropped.insert(position)
                let id = report.sources[position.source].id
                if position.source != kept.source, !alsoIn.contains(id) { alsoIn.append(id) }
            }
            if !alsoIn.isEmpty {
                report.sources[kept.source].items[kept.item].fields["alsoIn"] = .array(alsoIn.map(JSONValue.string))
            }
        }
        guard !dropped.isEmpty else { return }
        for sourceIndex in report.sources.indices {
            let items = report.sources[sourceIndex].items
            report.sources[sourceIndex].items = items.indices
                .filter { !dropped.contains(ItemPosition(source: sourceIndex, item: $0)) }
                .map { items[$0] }
        }
    }

    /// Newest first within each source, and `merged`: every item newest first across sources.
    private func sortByDate(_ report: inout AggregateReport) {
        for index in report.sources.indices {
            report.sources[index].items = Self.newestFirst(report.sources[index].items.enumerated().map { ($0.element.date, $0.element) })
        }
        let positions = report.sources.indices.flatMap { source in
            report.sources[source].items.indices.map { (report.sources[source].items[$0].date, ItemPosition(source: source, item: $0)) }
        }
        report.merged = Self.newestFirst(positions)
    }

    /// Stable: newest first, equal dates and undated values (last) keep their order.
    static func newestFirst<Value>(_ values: [(Date?, Value)]) -> [Value] {
        values.enumerated()
            .sorted { lhs, rhs in
                switch (lhs.element.0, rhs.element.0) {
                case let (left?, right?) where left != right: left > right
                case (.some, nil): true
                case (nil, .some): false
                default: lhs.offset < rhs.offset
                }
            }
            .map(\.element.1)
    }
}
