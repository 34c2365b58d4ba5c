import Domain
import Foundation

/// How items are ordered within each source (`--sort`). Sources always keep manifest order.
public enum ItemOrder: String, CaseIterable, Sendable {
    /// The source's own order (feed order, page order, file order).
    case source
    /// Newest first by item date; undated items last, in the source's order.
    case date
}

extension AggregateReport {
    /// The report with each source's items in `order`. Stable: equal dates keep the source's order.
    public func ordered(by order: ItemOrder) -> AggregateReport {
        guard order == .date else { return self }
        var copy = self
        for index in copy.sources.indices {
            copy.sources[index].items = copy.sources[index].items.enumerated()
                .sorted { lhs, rhs in
                    switch (lhs.element.date, rhs.element.date) {
                    case let (left?, right?) where left != right: left > right
                    case (.some, nil): true
                    case (nil, .some): false
                    default: lhs.offset < rhs.offset
                    }
                }
                .map(\.element)
        }
        return copy
    }
}
