import App
import Domain
import Foundation
import Hummingbird

extension GoogleReaderCalls {
    /// Ids a page of `stream/items/ids` holds by default and at most (NetNewsWire asks for 10,000 and follows no
    /// continuation).
    static let defaultIDCount = 1_000
    static let maxIDCount = 10_000
    /// Items a page of `stream/contents` holds by default and at most.
    static let defaultContentCount = 20
    static let maxContentCount = 1_000
    /// Items one `stream/items/contents` or `edit-tag` may name.
    static let maxNamedItems = 10_000

    /// `stream/items/ids`: `{"itemRefs": [{"id": "<decimal>", …}], "continuation": …}`.
    func itemIDs() async throws(ReaderProblem) -> Response {
        guard let s = parameters.first("s"), !s.isEmpty else {
            throw ReaderProblem(.badRequest, "s is required: the stream, such as \(GoogleReaderStream.readingList)")
        }
        let stream = try GoogleReaderStream(s, parameters: parameters, directory: directory)
        let count = try GoogleReaderStream.count(parameters, defaultCount: Self.defaultIDCount, maxCount: Self.maxIDCount)
        let (items, next) = try await page(stream, count: count)
        var writer = JSONWriter(capacity: 64 + items.count * 96)
        writer.beginObject()
        writer.key("itemRefs")
        writer.beginArray()
        for item in items {
            writer.beginObject()
            writer.key("id")
            writer.string(String(item.archiveID))
            writer.key("directStreamIds")
            writer.beginArray()
            writer.string("feed/" + item.sourceID)
            writer.endArray()
            writer.key("timestampUsec")
            writer.string(Self.microseconds(item.firstSeenAt))
            writer.endObject()
        }
        writer.endArray()
        if let next {
            writer.key("continuation")
            writer.string(next.text)
        }
        writer.endObject()
        return GoogleReaderRoutes.json(writer)
    }

    /// `stream/contents[/<stream>]`: a page of the stream's items with their content (the reading list without one).
    func streamContents(_ streamID: String?) async throws(ReaderProblem) -> Response {
        let stream = try GoogleReaderStream(streamID ?? parameters.first("s"), parameters: parameters, directory: directory)
        let count = try GoogleReaderStream.count(parameters, defaultCount: Self.defaultContentCount, maxCount: Self.maxContentCount)
        let (items, next) = try await page(stream, count: count)
        return contentsResponse(id: stream.id, items: items, next: next)
    }

    /// `stream/items/contents` with `i` (repeated): those items, in the order asked.
    func contents() async throws(ReaderProblem) -> Response {
        let ids = try namedItems()
        let items = try await ReaderService.archive(setup) { archive throws(SourceError) in try archive.items(withIDs: ids) }
        return contentsResponse(id: GoogleReaderStream.readingList, items: items, next: nil)
    }

    /// `edit-tag` with `i` (repeated), `a` and `r` (each repeatable): read and starred added or removed. Other tags
    /// (labels on items, `like`, `broadcast`) are not kept here and change nothing.
    func editTag() async throws(ReaderProblem) -> Response {
        let ids = try namedItems()
        var read: Bool?
        var starred: Bool?
        for (values, flag) in [(parameters.all("a"), true), (parameters.all("r"), false)] {
            for tag in values.map(GoogleReaderStream.normalized) {
                switch tag {
                case GoogleReaderStream.read: read = flag
                case GoogleReaderStream.keptUnread: read = !flag
                case GoogleReaderStream.starred: starred = flag
                default: continue
                }
            }
        }
        guard !parameters.all("a").isEmpty || !parameters.all("r").isEmpty else {
            throw ReaderProblem(.badRequest, "edit-tag needs a tag to add (a) or remove (r), such as \(GoogleReaderStream.read)")
        }
        if read != nil || starred != nil {
            let at = now()
            let change = (read: read, starred: starred)
            _ = try await ReaderService.archive(setup) { archive throws(SourceError) in
                try archive.setState(of: ids, read: change.read, starred: change.starred, at: at)
            }
        }
        return GoogleReaderRoutes.text("OK")
    }

    /// `mark-all-as-read` with `s` and, optionally, `ts` (only items up to then).
    func markAllAsRead() async throws(ReaderProblem) -> Response {
        guard let s = parameters.first("s"), !s.isEmpty else {
            throw ReaderProblem(.badRequest, "s is required: the stream to mark read, such as feed/<source>")
        }
        let until = try parameters.time("ts")
        let stream = try GoogleReaderStream(s, parameters: ReaderParameters([]), directory: directory)
        if var query = stream.query {
            if let until { query.until = min(query.until ?? until, until) }
            let at = now()
            let selection = query
            _ = try await ReaderService.archive(setup) { archive throws(SourceError) in try archive.markAllRead(selection, at: at) }
        }
        return GoogleReaderRoutes.text("OK")
    }

    // MARK: - Parts

    private func page(_ stream: GoogleReaderStream, count: Int) async throws(ReaderProblem) -> (items: [ArchivedItem], next: ArchiveCursor?) {
        guard let query = stream.query else { return ([], nil) }
        return try await ReaderService.archive(setup) { archive throws(SourceError) in
            try GoogleReaderStream.collect(query, count: count, from: archive)
        }
    }

    private func namedItems() throws(ReaderProblem) -> [Int64] {
        let given = parameters.all("i")
        guard !given.isEmpty else { throw ReaderProblem(.badRequest, "i is required: the item ids (repeat i for more)") }
        guard given.count <= Self.maxNamedItems else {
            throw ReaderProblem(.badRequest, "at most \(Self.maxNamedItems) items at once, not \(given.count)")
        }
        var ids: [Int64] = []
        ids.reserveCapacity(given.count)
        for text in given { ids.append(try ReaderItemID.parse(text)) }
        return ids
    }

    private func contentsResponse(id: String, items: [ArchivedItem], next: ArchiveCursor?) -> Response {
        var writer = JSONWriter(capacity: 256 + items.count * 2048)
        writer.beginObject()
        writer.key("direction")
        writer.string("ltr")
        writer.key("id")
        writer.string(id)
        writer.key("title")
        writer.string(id.hasPrefix("feed/") ? String(id.dropFirst(5)) : "aggregate")
        writer.key("updated")
        writer.int(Int(now().timeIntervalSince1970))
        writer.key("items")
        writer.beginArray()
        for item in items { write(item, to: &writer) }
        writer.endArray()
        if let next {
            writer.key("continuation")
            writer.string(next.text)
        }
        writer.endObject()
        return GoogleReaderRoutes.json(writer)
    }

    private func write(_ archived: ArchivedItem, to writer: inout JSONWriter) {
        let item = archived.item
        let link = ReaderItemText.link(archived, base: base)
        writer.beginObject()
        writer.key("id")
        writer.string(ReaderItemID.long(archived.archiveID))
        writer.key("crawlTimeMsec")
        writer.string(String(Int64((archived.firstSeenAt.timeIntervalSince1970 * 1000).rounded())))
        writer.key("timestampUsec")
        writer.string(Self.microseconds(archived.firstSeenAt))
        writer.key("published")
        writer.int(Int(archived.sortDate.timeIntervalSince1970))
        writer.key("updated")
        writer.int(Int(archived.lastSeenAt.timeIntervalSince1970))
        writer.key("title")
        writer.string(item.title)
        writer.key("author")
        writer.string(ReaderItemText.author(item) ?? "")
        writer.key("categories")
        writer.beginArray()
        writer.string(GoogleReaderStream.readingList)
        if archived.readAt != nil { writer.string(GoogleReaderStream.read) }
        if archived.starredAt != nil { writer.string(GoogleReaderStream.starred) }
        for tag in directory.feed(archived.sourceID)?.tags ?? [] { writer.string(GoogleReaderStream.labelPrefix + tag) }
        writer.endArray()
        for key in ["canonical", "alternate"] {
            writer.key(key)
            writer.beginArray()
            writer.beginObject()
            writer.key("href")
            writer.string(link)
            if key == "alternate" {
                writer.key("type")
                writer.string("text/html")
            }
            writer.endObject()
            writer.endArray()
        }
        let html = ReaderItemText.html(item)
        for key in ["summary", "content"] {
            writer.key(key)
            writer.beginObject()
            writer.key("direction")
            writer.string("ltr")
            writer.key("content")
            writer.string(html)
            writer.endObject()
        }
        writer.key("origin")
        writer.beginObject()
        writer.key("streamId")
        writer.string("feed/" + archived.sourceID)
        writer.key("title")
        writer.string(archived.sourceID)
        writer.key("htmlUrl")
        writer.string(base + "/sources/" + archived.sourceID)
        writer.endObject()
        writer.endObject()
    }

    static func microseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1_000_000).rounded()))
    }
}
