import Foundation

/// Whose stored data it is: a source's manifest id and a fingerprint of what the source fetches (its provider
/// and resolved options in canonical form, credentials reduced to a hash). Everything stored per source (last
/// good copy, history of seen items, recent queries) is kept under both, so data saved for other options, or
/// for another manifest's source of the same id, is never served as this source's.
public struct SourceIdentity: Sendable, Hashable {
    /// The source's manifest id.
    public var id: String
    /// A digest of its provider and resolved options (credentials hashed).
    public var fingerprint: String

    /// The identity of source `id` with `fingerprint`.
    public init(id: String, fingerprint: String) {
        self.id = id
        self.fingerprint = fingerprint
    }
}

/// A source's items from its last successful run, kept to serve when a later load fails (stale-if-error)
/// or the run is offline.
public struct SourceSnapshot: Sendable, Hashable {
    /// Whose copy it is.
    public var source: SourceIdentity
    /// Distinguishes runs of one source that ask for different things (the `--query`); empty when none.
    public var variant: String
    /// The items of the successful run, in its order.
    public var items: [Item]
    /// When the copy was saved.
    public var savedAt: Date

    /// A copy of `items` for `source`.
    public init(source: SourceIdentity, variant: String = "", items: [Item], savedAt: Date) {
        self.source = source
        self.variant = variant
        self.items = items
        self.savedAt = savedAt
    }
}

/// Where the last good copy of each source is kept.
public protocol SourceSnapshotRepository: Sendable {
    /// The last copy saved for `source` and `variant`; nil when there is none.
    func lastGood(of source: SourceIdentity, variant: String) throws(SourceError) -> SourceSnapshot?
    /// Replaces the source's copy for `snapshot.variant`.
    func saveLastGood(_ snapshot: SourceSnapshot) throws(SourceError)
}

/// What recording a run's items told about them.
public struct SeenItems: Sendable, Hashable {
    /// The ids that this source had never delivered before.
    public var unseen: Set<String>
    /// True when the source had no history at all (its first recorded run).
    public var isFirstRun: Bool

    /// What recording found.
    public init(unseen: Set<String>, isFirstRun: Bool) {
        self.unseen = unseen
        self.isFirstRun = isFirstRun
    }
}

/// The history of every item each source delivered (`--new`: "new since last run"), and with it the archive
/// (`ItemArchiveRepository`): each call records the items in both, in one transaction, so an item is never new
/// to the history but missing from the archive, or the reverse.
public protocol SeenItemsRepository: Sendable {
    /// Records `items` as seen by `source` (keeping the first time each was seen), archives them, and tells which
    /// were new.
    func recordSeen(by source: SourceIdentity, items: [Item], at date: Date) throws(SourceError) -> SeenItems

    /// Records each batch as `recordSeen` does, without telling anything back: cheaper, for runs that print every
    /// item anyway. All of them in one transaction: a run of many small sources records them together (one
    /// commit each was most of what the history cost a run of 1,000 feeds).
    func markSeen(_ batches: [SeenBatch], at date: Date) throws(SourceError)
}

/// Items one source delivered, for `SeenItemsRepository.markSeen`.
public struct SeenBatch: Sendable, Hashable {
    /// The source that delivered the items.
    public var source: SourceIdentity
    /// The items, in the order delivered.
    public var items: [Item]

    /// A batch of `source`'s `items`.
    public init(source: SourceIdentity, items: [Item]) {
        self.source = source
        self.items = items
    }

    /// The items' ids, in order.
    public var itemIDs: [String] { items.map(\.id) }
}
