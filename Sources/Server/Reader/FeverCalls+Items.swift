import App
import Domain
import Foundation

extension FeverCalls {
    /// `items`: 50 by archive id, after `since_id` (ascending), before `max_id` (descending; 0 is no bound), or
    /// those of `with_ids` (at most 50); without any, the first 50.
    func items(total: Int, to writer: inout JSONWriter) async throws(ReaderProblem) {
        let sources = directory.sourceIDs
        let items: [ArchivedItem]
        if let list = parameters.first("with_ids") {
            let ids = try list.split(separator: ",").map { text throws(ReaderProblem) -> Int64 in
                guard let id = Int64(text.trimmingCharacters(in: .whitespaces)) else {
                    throw ReaderProblem(.badRequest, "with_ids must be item ids separated by commas, not \(ReaderParameters.quoted(list))")
                }
                return id
            }
            guard ids.count <= FeverRoutes.pageSize else {
                throw ReaderProblem(.badRequest, "with_ids names at most \(FeverRoutes.pageSize) items, not \(ids.count)")
            }
            if ids.isEmpty {
                items = []
            } else {
                items = try await ReaderService.archive(setup) { archive throws(SourceError) in try archive.items(withIDs: ids) }
            }
        } else if sources.isEmpty {
            items = []
        } else {
            var query = ArchiveQuery(sourceIDs: sources, order: .archiveID, limit: FeverRoutes.pageSize)
            if let since = try parameters.int("since_id") {
                query.afterArchiveID = since
            } else if let max = try parameters.int("max_id"), max > 0 {
                query.beforeArchiveID = max
                query.order = .archiveIDDescending
            } else if parameters.has("max_id") {
                query.order = .archiveIDDescending
            }
            let selection = query
            items = try await ReaderService.archive(setup) { archive throws(SourceError) in try archive.items(selection).items }
        }
        writer.key("total_items")
        writer.int(total)
        writer.key("items")
        writer.beginArray()
        for archived in items {
            writer.beginObject()
            writer.key("id")
            writer.int(Int(archived.archiveID))
            writer.key("feed_id")
            writer.int(directory.feverFeedIDs[archived.sourceID] ?? 0)
            writer.key("title")
            writer.string(archived.item.title)
            writer.key("author")
            writer.string(ReaderItemText.author(archived.item) ?? "")
            writer.key("html")
            writer.string(ReaderItemText.html(archived.item))
            writer.key("url")
            writer.string(ReaderItemText.link(archived, base: base))
            writer.key("is_saved")
            writer.int(archived.starredAt == nil ? 0 : 1)
            writer.key("is_read")
            writer.int(archived.readAt == nil ? 0 : 1)
            writer.key("created_on_time")
            writer.int(Int(archived.sortDate.timeIntervalSince1970))
            writer.endObject()
        }
        writer.endArray()
    }

    /// `unread_item_ids` / `saved_item_ids`: every such id of the current feeds, comma-separated, as Fever wrote them.
    func ids(_ key: String, read: Bool?, starred: Bool?, to writer: inout JSONWriter) async throws(ReaderProblem) {
        let sources = directory.sourceIDs
        var ids: [Int64] = []
        if !sources.isEmpty {
            let query = ArchiveQuery(sourceIDs: sources, read: read, starred: starred, order: .archiveID)
            ids = try await ReaderService.archive(setup) { archive throws(SourceError) in
                try GoogleReaderStream.collect(query, count: FeverRoutes.maxListedIDs, from: archive).items.map(\.archiveID)
            }
        }
        writer.key(key)
        writer.string(ids.map(String.init).joined(separator: ","))
    }

    /// `mark=item&as=read|unread|saved|unsaved&id=N`, `mark=feed|group&as=read&id=N&before=<seconds>` (group 0:
    /// every feed).
    func mark(_ kind: String) async throws(ReaderProblem) {
        let state = parameters.first("as") ?? ""
        guard let id = try parameters.int("id") else { throw ReaderProblem(.badRequest, "mark needs id") }
        let at = now()
        switch kind {
        case "item":
            let change: (read: Bool?, starred: Bool?)
            switch state {
            case "read": change = (true, nil)
            case "unread": change = (false, nil)
            case "saved": change = (nil, true)
            case "unsaved": change = (nil, false)
            default: throw ReaderProblem(.badRequest, "as must be read, unread, saved or unsaved for an item, not \(ReaderParameters.quoted(state))")
            }
            _ = try await ReaderService.archive(setup) { archive throws(SourceError) in
                try archive.setState(of: [id], read: change.read, starred: change.starred, at: at)
            }
        case "feed", "group":
            guard state == "read" else {
                throw ReaderProblem(.badRequest, "as must be read for a \(kind), not \(ReaderParameters.quoted(state))")
            }
            let sources: [String]
            if kind == "feed" {
                guard let source = Int(exactly: id).flatMap(directory.source(feverFeed:)) else {
                    throw ReaderProblem(.badRequest, "no feed \(id) (feeds lists them)")
                }
                sources = [source]
            } else if id == 0 {
                sources = directory.sourceIDs
            } else {
                guard let tag = Int(exactly: id).flatMap(directory.tag(feverGroup:)) else {
                    throw ReaderProblem(.badRequest, "no group \(id) (groups lists them)")
                }
                sources = directory.sourceIDs(tagged: tag)
            }
            guard !sources.isEmpty else { return }
            let before = try parameters.time("before")
            let query = ArchiveQuery(sourceIDs: sources, until: before)
            _ = try await ReaderService.archive(setup) { archive throws(SourceError) in try archive.markAllRead(query, at: at) }
        default:
            throw ReaderProblem(.badRequest, "mark must be item, feed or group, not \(ReaderParameters.quoted(kind))")
        }
    }
}
