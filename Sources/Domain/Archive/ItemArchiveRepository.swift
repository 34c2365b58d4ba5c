import Foundation

/// Every item a run saw, kept in the store (`archive_item`): written with the item history, in the same
/// transaction (`SeenItemsRepository`), so an item is in the archive exactly when the history knows it; read by
/// `aggregate search`, `serve`'s `/api/items` and the reader APIs; pruned by its retention. A store may stage what
/// a run wrote and index it later (`StagingItemArchive`); every call here sees everything written before it.
public protocol ItemArchiveRepository: Sendable {
    /// One page of the items `query` selects, in its order.
    func items(_ query: ArchiveQuery) throws(SourceError) -> ArchivePage
    /// The items with these archive ids, in the order given (an id the archive lacks is left out).
    func items(withIDs ids: [Int64]) throws(SourceError) -> [ArchivedItem]
    /// The items of `sourceID` with these item ids (the provider's ids), in the order given: a source's latest
    /// items as its last run listed them (`serve` keeps only the ids). Under a source id stored with several
    /// identities, the newest identity's item; an id the archive lacks is left out.
    func items(of sourceID: String, itemIDs: [String]) throws(SourceError) -> [ArchivedItem]
    /// Marks the items with `ids` read or unread, starred or not (nil leaves that state as it is).
    /// - Returns: how many items changed.
    func setState(of ids: [Int64], read: Bool?, starred: Bool?, at date: Date) throws(SourceError) -> Int
    /// Marks read every unread item `query` selects, whatever its limit, cursor and order (a reader app's "mark
    /// all as read").
    /// - Returns: how many items changed.
    func markAllRead(_ query: ArchiveQuery, at date: Date) throws(SourceError) -> Int
    /// Per source id (sorted), what the archive holds.
    func stats() throws(SourceError) -> [ArchiveStats]
    /// Removes what `retention` no longer keeps (`retention(sourceID)` for each source id stored), in small
    /// transactions, so a run writing meanwhile waits for one of them at most.
    /// - Returns: how many items were removed.
    func prune(retention: @Sendable (_ sourceID: String) -> ArchiveRetention, now: Date) throws(SourceError) -> Int
}

/// An archive that stages what runs write and writes it into the archive and its index later (the SQLite store's,
/// for large batches). Its `ItemArchiveRepository` calls write what is staged first, so they see everything
/// written before them; long-running front ends call `catchUp` after each run, so their readers find nothing
/// left to do.
public protocol StagingItemArchive: ItemArchiveRepository {
    /// Writes and indexes what runs staged, in small transactions (a run writing meanwhile waits for one of them
    /// at most). Safe from several threads and processes at once.
    /// - Returns: how many items were written.
    func catchUp() throws(SourceError) -> Int
}

/// An item as the archive keeps it.
public struct ArchivedItem: Sendable, Hashable {
    /// The archive's own id: stable, never reused, what the reader APIs call an item.
    public var archiveID: Int64
    /// The manifest id of the source that delivered it.
    public var sourceID: String
    /// The item as last delivered.
    public var item: Item
    /// When a run first delivered it.
    public var firstSeenAt: Date
    /// When a run last delivered it.
    public var lastSeenAt: Date
    /// When a reader marked it read; nil while unread.
    public var readAt: Date?
    /// When a reader starred it; nil when not starred.
    public var starredAt: Date?
    /// With a full-text query: the best matching passage, matches between `ArchivedItem.highlight` marks.
    public var snippet: String?

    /// The marks around a match in `snippet`: U+0002 (start of text) and U+0003 (end of text), which no item
    /// text contains, so a renderer can highlight them its own way.
    public static let highlight = (start: "\u{2}", end: "\u{3}")

    /// An archived item, as a store reads one.
    public init(
        archiveID: Int64, sourceID: String, item: Item, firstSeenAt: Date, lastSeenAt: Date, readAt: Date? = nil,
        starredAt: Date? = nil, snippet: String? = nil
    ) {
        self.archiveID = archiveID
        self.sourceID = sourceID
        self.item = item
        self.firstSeenAt = firstSeenAt
        self.lastSeenAt = lastSeenAt
        self.readAt = readAt
        self.starredAt = starredAt
        self.snippet = snippet
    }

    /// The date the archive sorts by: the item's own, else when it was first seen.
    public var sortDate: Date { item.date ?? firstSeenAt }
}

/// What to read from the archive.
public struct ArchiveQuery: Sendable, Hashable {
    /// The order of a query's items.
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Best match first (with `text`; without one, as `newest`).
        case relevance
        /// The newest first (`ArchivedItem.sortDate`, then the newest archive id).
        case newest
        /// The oldest first.
        case oldest
        /// By archive id, the lowest first (the order items were archived in: the Fever API's `since_id`).
        case archiveID
        /// By archive id, the highest first (the Fever API's `max_id`).
        case archiveIDDescending
    }

    /// Only items matching this full-text query (nil: every item).
    public var text: SearchQuery?
    /// Only these source ids (nil: every source the archive holds).
    public var sourceIDs: [String]?
    /// Only items of these kinds (nil: every kind).
    public var kinds: Set<ItemKind>?
    /// Only items whose `sortDate` is after `since` / not after `until`.
    public var since: Date?
    /// See `since`.
    public var until: Date?
    /// Only read (true) or unread (false) items; only starred (true) or not starred (false) ones.
    public var read: Bool?
    /// See `read`.
    public var starred: Bool?
    /// Only items whose archive id is above `afterArchiveID` / below `beforeArchiveID`.
    public var afterArchiveID: Int64?
    /// See `afterArchiveID`.
    public var beforeArchiveID: Int64?
    /// How the items are ordered.
    public var order: Order
    /// At most this many, and where the previous page ended.
    public var limit: Int
    /// Where the previous page ended (nil: the first page).
    public var after: ArchiveCursor?

    /// The most items one page may hold.
    public static let maxLimit = 1_000

    /// A query; with a text the order defaults to relevance, else newest first. `limit` is kept within
    /// `1...maxLimit`.
    public init(
        text: SearchQuery? = nil, sourceIDs: [String]? = nil, kinds: Set<ItemKind>? = nil, since: Date? = nil,
        until: Date? = nil, read: Bool? = nil, starred: Bool? = nil, afterArchiveID: Int64? = nil,
        beforeArchiveID: Int64? = nil, order: Order? = nil, limit: Int = 50, after: ArchiveCursor? = nil
    ) {
        self.afterArchiveID = afterArchiveID
        self.beforeArchiveID = beforeArchiveID
        self.text = text
        self.sourceIDs = sourceIDs
        self.kinds = kinds
        self.since = since
        self.until = until
        self.read = read
        self.starred = starred
        self.order = order ?? (text == nil ? .newest : .relevance)
        self.limit = min(max(1, limit), Self.maxLimit)
        self.after = after
    }

    /// The order actually used: relevance needs a text to rank by.
    public var effectiveOrder: Order { order == .relevance && text == nil ? .newest : order }
}

/// Where a page of the archive ended (opaque to users: `text` and `init?(_:)` round-trip it).
public struct ArchiveCursor: Sendable, Hashable {
    /// The last item's sort key (its `sortDate` in seconds, its rank, or its archive id) and archive id.
    public var key: Double
    /// The last item's archive id: it breaks ties of `key`.
    public var archiveID: Int64

    /// A cursor after the item with `key` and `archiveID`.
    public init(key: Double, archiveID: Int64) {
        self.key = key
        self.archiveID = archiveID
    }

    /// `a1.<key bits in hex>.<id>`: exact (the key's bits, not a rounded decimal).
    public var text: String {
        "a1." + String(key.bitPattern, radix: 16) + "." + String(archiveID)
    }

    /// Reads a cursor's `text`; nil when it is not one (an earlier version's, or made up).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "a1", let bits = UInt64(parts[1], radix: 16), let id = Int64(parts[2]) else {
            return nil
        }
        let key = Double(bitPattern: bits)
        guard key.isFinite else { return nil }
        self.init(key: key, archiveID: id)
    }
}

/// One page of the archive.
public struct ArchivePage: Sendable, Hashable {
    /// The page's items, in the query's order.
    public var items: [ArchivedItem]
    /// Where the next page starts; nil on the last.
    public var next: ArchiveCursor?

    /// A page of `items`, followed by `next`.
    public init(items: [ArchivedItem], next: ArchiveCursor?) {
        self.items = items
        self.next = next
    }
}

/// How long the archive keeps a source's items: those first seen more than `days` ago go, and past
/// `maxItemsPerSource` the oldest go. Starred items stay whatever their age (a reader app's saved items).
public struct ArchiveRetention: Sendable, Hashable {
    /// Items first seen more than this many days ago go.
    public var days: Int
    /// Past this many items of a source, the oldest go.
    public var maxItemsPerSource: Int

    /// 90 days and 10,000 items a source: what a manifest without `retention` gets.
    public static let `default` = ArchiveRetention(days: 90, maxItemsPerSource: 10_000)

    /// A retention of `days` and `maxItemsPerSource`.
    public init(days: Int, maxItemsPerSource: Int) {
        self.days = days
        self.maxItemsPerSource = maxItemsPerSource
    }
}

/// What the archive holds of one source id.
public struct ArchiveStats: Sendable, Hashable {
    /// The source id.
    public var sourceID: String
    /// How many items the archive holds of it.
    public var items: Int
    /// How many of them are unread.
    public var unread: Int
    /// How many of them are starred.
    public var starred: Int
    /// When the earliest of them was first seen.
    public var oldestFirstSeen: Date?
    /// When the latest of them was first seen.
    public var newestFirstSeen: Date?

    /// Statistics as a store counts them.
    public init(sourceID: String, items: Int, unread: Int, starred: Int, oldestFirstSeen: Date?, newestFirstSeen: Date?) {
        self.sourceID = sourceID
        self.items = items
        self.unread = unread
        self.starred = starred
        self.oldestFirstSeen = oldestFirstSeen
        self.newestFirstSeen = newestFirstSeen
    }
}
