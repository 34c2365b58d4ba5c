import Domain
import Foundation

extension AggregateReport {
    /// Archived items as a report the renderers take: each source once (with its state from `sources`), the
    /// items in the archive's order (`merged`). An item of a source not in `sources` is left out.
    init(archived: [ArchivedItem], sources: [SourceReport], generatedAt: Date) {
        let byID = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var reports: [SourceReport] = []
        var index: [String: Int] = [:]
        var merged: [ItemPosition] = []
        for entry in archived {
            guard let state = byID[entry.sourceID] else { continue }
            let position = index[entry.sourceID] ?? {
                var report = state
                report.items = []
                report.streamedItemCount = 0
                reports.append(report)
                index[entry.sourceID] = reports.count - 1
                return reports.count - 1
            }()
            merged.append(ItemPosition(source: position, item: reports[position].items.count))
            reports[position].items.append(entry.item)
        }
        self.init(generatedAt: generatedAt, sources: reports)
        self.merged = merged
    }
}
