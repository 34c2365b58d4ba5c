import Foundation

/// A source's items from its last successful run, kept to serve when a later load fails (stale-if-error)
/// or the run is offline.
public struct SourceSnapshot: Sendable, Hashable {
    public var sourceID: String
    /// Distinguishes runs of one source that ask for different things (the `--query`); empty when none.
    public var variant: String
    public var items: [Item]
    public var savedAt: Date

    public init(sourceID: String, variant: String = "", items: [Item], savedAt: Date) {
        self.sourceID = sourceID
        self.variant = variant
        self.items = items
        self.savedAt = savedAt
    }
}

/// Where the last good copy of each source is kept.
public protocol SourceSnapshotRepository: Sendable {
    func lastGood(sourceID: String, variant: String) throws(SourceError) -> SourceSnapshot?
    /// Replaces the source's copy for `snapshot.variant`.
    func saveLastGood(_ snapshot: SourceSnapshot) throws(SourceError)
}

/// What recording a run's items told about them.
public struct SeenItems: Sendable, Hashable {
    /// The ids that this source had never delivered before.
    public var unseen: Set<String>
    /// True when the source had no history at all (its first recorded run).
    public var isFirstRun: Bool

    public init(unseen: Set<String>, isFirstRun: Bool) {
        self.unseen = unseen
        self.isFirstRun = isFirstRun
    }
}

/// The history of every item each source delivered (`--new`: "new since last run").
public protocol SeenItemsRepository: Sendable {
    /// Records `itemIDs` as seen by `sourceID` (keeping the first time each was seen) and tells which were new.
    func recordSeen(sourceID: String, itemIDs: [String], at date: Date) throws(SourceError) -> SeenItems

    /// Records `itemIDs` as `recordSeen` does without telling anything back: cheaper, for runs that print
    /// every item anyway.
    func markSeen(sourceID: String, itemIDs: [String], at date: Date) throws(SourceError)
}
