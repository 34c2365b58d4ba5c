import App
import Domain
import Foundation

/// A Google Reader stream (`s`, or the path of `stream/contents/<stream>`) with the filters clients add
/// (`xt`, `it`, `ot`, `nt`, `r`, `c`), as an archive query.
struct GoogleReaderStream: Sendable {
    static let readingList = "user/-/state/com.google/reading-list"
    static let read = "user/-/state/com.google/read"
    static let starred = "user/-/state/com.google/starred"
    static let keptUnread = "user/-/state/com.google/kept-unread"
    static let labelPrefix = "user/-/label/"

    /// The stream id as given (for the response's `id`).
    let id: String
    /// The archive query without its limit; nil when the stream selects nothing (a label no source carries).
    let query: ArchiveQuery?

    /// - Throws: a 400 naming an unknown stream or a bad filter.
    init(_ given: String?, parameters: ReaderParameters, directory: ReaderDirectory) throws(ReaderProblem) {
        let id = Self.normalized(given ?? Self.readingList)
        self.id = id
        var read: Bool?
        var starred: Bool?
        var sources: [String]? = directory.sourceIDs
        switch id {
        case Self.readingList: break
        case Self.read: read = true
        case Self.starred: starred = true
        case Self.keptUnread: read = false
        default:
            if id.hasPrefix("feed/") {
                let source = String(id.dropFirst(5))
                guard directory.feed(source) != nil else {
                    throw ReaderProblem(.badRequest, "no feed \(ReaderParameters.quoted(id)): feeds are the manifest's sources (subscription/list)")
                }
                sources = [source]
            } else if id.hasPrefix(Self.labelPrefix) {
                sources = directory.sourceIDs(tagged: String(id.dropFirst(Self.labelPrefix.count)))
            } else {
                throw ReaderProblem(.badRequest, "unknown stream \(ReaderParameters.quoted(id)) (known: \(Self.readingList), \(Self.starred), \(Self.read), feed/<source>, \(Self.labelPrefix)<tag>)")
            }
        }
        for exclude in parameters.all("xt").map(Self.normalized) {
            switch exclude {
            case Self.read: read = false
            case Self.starred: starred = false
            case Self.keptUnread: read = true
            default: break  // a label or a feed excluded: nothing clients rely on; everything stays
            }
        }
        for include in parameters.all("it").map(Self.normalized) {
            switch include {
            case Self.read: read = true
            case Self.starred: starred = true
            case Self.keptUnread: read = false
            default: break
            }
        }
        var order: ArchiveQuery.Order = .newest
        switch parameters.first("r") {
        case nil, "", "n", "d": break
        case "o", "a": order = .oldest
        case let other?: throw ReaderProblem(.badRequest, "r must be o (oldest first) or left out, not \(ReaderParameters.quoted(other))")
        }
        var after: ArchiveCursor?
        if let text = parameters.first("c"), !text.isEmpty {
            guard let cursor = ArchiveCursor(text) else {
                throw ReaderProblem(.badRequest, "c \(ReaderParameters.quoted(text)) is not a continuation this server gave")
            }
            after = cursor
        }
        let since = try parameters.time("ot")
        let until = try parameters.time("nt")
        guard let sources, !sources.isEmpty else {
            query = nil
            return
        }
        query = ArchiveQuery(
            sourceIDs: sources, since: since, until: until, read: read, starred: starred, order: order, after: after)
    }

    /// `user/1234/state/…` (a client that learnt its user id) is `user/-/state/…`.
    static func normalized(_ id: String) -> String {
        guard id.hasPrefix("user/"), let slash = id.dropFirst(5).firstIndex(of: "/") else { return id }
        return "user/-" + id[slash...]
    }

    /// The page size asked for (`n`): `defaultCount` when absent, at most `maxCount` (clients ask for 10,000
    /// and expect what there is, so more is capped, not refused).
    static func count(_ parameters: ReaderParameters, defaultCount: Int, maxCount: Int) throws(ReaderProblem) -> Int {
        guard let n = try parameters.int("n") else { return defaultCount }
        guard n > 0 else { throw ReaderProblem(.badRequest, "n must be 1 or more, not \(n)") }
        return Int(min(n, Int64(maxCount)))
    }

    /// Up to `count` items of `query`, reading as many archive pages as it takes.
    /// - Returns: the items and where the next page starts.
    static func collect(
        _ query: ArchiveQuery, count: Int, from archive: any ItemArchiveRepository
    ) throws(SourceError) -> (items: [ArchivedItem], next: ArchiveCursor?) {
        var query = query
        var items: [ArchivedItem] = []
        var next = query.after
        repeat {
            query.after = next
            query.limit = min(count - items.count, ArchiveQuery.maxLimit)
            let page = try archive.items(query)
            items += page.items
            next = page.next
        } while next != nil && items.count < count
        return (items, next)
    }
}
