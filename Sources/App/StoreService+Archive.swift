import Domain
import Foundation

/// `aggregate search` and `aggregate archive stats|prune`: the item archive, behind the composition root.
extension StoreService {
    /// One page of the archive; `.unavailable` where the store keeps no archive.
    public func search(_ query: ArchiveQuery) throws(SourceError) -> ArchivePage {
        try archive().items(query)
    }

    /// Per source id: what the archive holds.
    public func archiveStats() throws(SourceError) -> [ArchiveStats] {
        try archive().stats()
    }

    /// Removes what each source's retention no longer keeps (`manifest`'s rules; without one, the defaults).
    /// - Returns: how many items went.
    public func pruneArchive(manifest: Manifest?, now: Date = Date()) throws(SourceError) -> Int {
        try archive().prune(retention: { manifest?.retention(of: $0) ?? .default }, now: now)
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

    private func archive() throws(SourceError) -> any ItemArchiveRepository {
        guard let archive = store.archive else {
            throw SourceError(.configuration, "the item archive is not kept on \(location) yet: it is kept on the SQLite store")
        }
        return archive
    }
}
