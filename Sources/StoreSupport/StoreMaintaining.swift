import Domain
import Foundation

/// What `aggregate cache stats|clear` and `aggregate history clear` do, whichever store is behind them.
public protocol StoreMaintaining: Sendable {
    /// Per source (sorted by id), or only `sourceID`'s.
    func stats(sourceID: String?, now: Date) throws(SourceError) -> [StoreMaintenance.SourceStats]
    /// Removes stored responses and last good copies (of every source, or only `sourceID`'s).
    func clearCache(sourceID: String?) throws(SourceError) -> StoreMaintenance.Removed
    /// Forgets which items were seen (every source, or only `sourceID`).
    func clearHistory(sourceID: String?) throws(SourceError) -> StoreMaintenance.Removed
}

/// What `aggregate cache stats|clear` and `aggregate history clear` report, from either store.
public enum StoreMaintenance {
    /// One source's share of the store.
    public struct SourceStats: Sendable, Hashable {
        /// The source's manifest id.
        public var sourceID: String
        /// Responses stored for it.
        public var responses: Int
        /// Those of its responses that are still fresh.
        public var freshResponses: Int
        /// The bytes its responses take (bodies and headers).
        public var bytes: Int
        /// When the oldest stored response was received or last confirmed.
        public var oldestResponse: Date?
        /// When the newest stored response was received or last confirmed.
        public var newestResponse: Date?
        /// Items in the last good copies (all variants).
        public var snapshotItems: Int
        /// When its last good copy was saved, if it has one.
        public var snapshotSavedAt: Date?
        /// Items in the `--new` history.
        public var historyItems: Int

        /// Statistics as a store computes them; counts default to 0.
        public init(
            sourceID: String, responses: Int = 0, freshResponses: Int = 0, bytes: Int = 0, oldestResponse: Date? = nil,
            newestResponse: Date? = nil, snapshotItems: Int = 0, snapshotSavedAt: Date? = nil, historyItems: Int = 0
        ) {
            self.sourceID = sourceID
            self.responses = responses
            self.freshResponses = freshResponses
            self.bytes = bytes
            self.oldestResponse = oldestResponse
            self.newestResponse = newestResponse
            self.snapshotItems = snapshotItems
            self.snapshotSavedAt = snapshotSavedAt
            self.historyItems = historyItems
        }
    }

    /// What a clear removed.
    public struct Removed: Sendable, Hashable {
        /// Stored responses removed.
        public var responses = 0
        /// Last good copies removed.
        public var snapshots = 0
        /// Item ids removed from the `--new` history.
        public var historyItems = 0

        /// Counts of what was removed.
        public init(responses: Int = 0, snapshots: Int = 0, historyItems: Int = 0) {
            self.responses = responses
            self.snapshots = snapshots
            self.historyItems = historyItems
        }
    }
}
