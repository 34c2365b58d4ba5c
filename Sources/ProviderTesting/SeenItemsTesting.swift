import Domain
import Foundation

// For tests of the item history that care about ids only: each id becomes a record titled by it.

extension SeenItemsRepository {
    /// `recordSeen(by:items:at:)` with a record per id, titled by it.
    public func recordSeen(by source: SourceIdentity, itemIDs: [String], at date: Date) throws(SourceError) -> SeenItems {
        try recordSeen(by: source, items: itemIDs.map(Item.testRecord), at: date)
    }
}

extension SeenBatch {
    /// A batch of records, one per id, titled by it.
    public init(source: SourceIdentity, itemIDs: [String]) {
        self.init(source: source, items: itemIDs.map(Item.testRecord))
    }
}

extension Item {
    /// A record with `id`, titled by it.
    public static func testRecord(_ id: String) -> Item {
        Item(kind: .record, id: id, title: id)
    }
}
