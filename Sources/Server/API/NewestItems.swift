import Domain
import Foundation

/// The newest `limit` items of a report, in the engine's date order (`ShapeItemsUseCase`, `.date`: newest
/// first across sources, undated last, ties in manifest order), without sorting what cannot be among them:
/// only items dated at or after the `limit`-th newest date go through the merge. A feed of 100 entries over
/// 50,000 items sorts 50,000 numbers, not 50,000 items.
struct NewestItems {
    /// The report narrowed to the newest items, its `merged` order holding exactly them (what the feed
    /// renderers read).
    let report: AggregateReport

    init(_ report: AggregateReport, limit: Int) {
        var dates: [Double] = []
        for source in report.sources { for item in source.items { if let date = item.date { dates.append(date.timeIntervalSince1970) } } }
        var narrowed = report
        if dates.count > limit {
            // The limit-th largest date: everything older sorts after `limit` dated items (and undated ones last).
            dates.sort(by: >)
            let threshold = dates[limit - 1]
            for index in narrowed.sources.indices {
                narrowed.sources[index].items.removeAll { ($0.date?.timeIntervalSince1970 ?? -.infinity) < threshold }
            }
        }
        var shaped = ShapeItemsUseCase(ItemShaping(order: .date)).execute(narrowed)
        if let merged = shaped.merged, merged.count > limit { shaped.merged = Array(merged.prefix(limit)) }
        self.report = shaped
    }

    var items: [(source: String, item: Item)] { report.itemsInOutputOrder() }
}
