import Domain
import Foundation

/// `aggregate search` and `aggregate archive stats|prune`: the item archive, behind the composition root.
extension StoreService {
    /// One page of the archive.
    public func search(_ query: ArchiveQuery) throws(SourceError) -> ArchivePage {
        try store.archive.items(query)
    }

    /// Per source id: what the archive holds.
    public func archiveStats() throws(SourceError) -> [ArchiveStats] {
        try store.archive.stats()
    }

    /// Removes what each source's retention no longer keeps (`manifest`'s rules; without one, the defaults).
    /// - Returns: how many items went.
    public func pruneArchive(manifest: Manifest?, now: Date = Date()) throws(SourceError) -> Int {
        try store.archive.prune(retention: { manifest?.retention(of: $0) ?? .default }, now: now)
    }

    /// The `archive stats` table: a header row and one row per source id.
    public static func archiveStatsRows(_ stats: [ArchiveStats], now: Date = Date()) -> [[String]] {
        func age(_ date: Date?) -> String {
            date.map { RunStorage.describeAge(now.timeIntervalSince($0)) } ?? "-"
        }
        return [["SOURCE", "ITEMS", "UNREAD", "STARRED", "OLDEST", "NEWEST"]] + stats.map {
            [$0.sourceID, String($0.items), String($0.unread), String($0.starred), age($0.oldestFirstSeen), age($0.newestFirstSeen)]
        }
    }
}
