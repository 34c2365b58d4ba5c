import App
import Domain
import Foundation
import Hummingbird

/// The Google Reader calls of one authenticated request: the account's lists here, the items' calls in
/// `GoogleReaderCalls+Items.swift`.
struct GoogleReaderCalls: Sendable {
    let setup: ReaderService.Setup
    let parameters: ReaderParameters
    /// `http://<Host>` of the request.
    let base: String
    let now: @Sendable () -> Date

    var directory: ReaderDirectory { setup.directory }

    func userInfo(_ account: ReaderAccount) -> Response {
        var writer = JSONWriter()
        writer.beginObject()
        for (key, value) in [("userId", "1"), ("userName", account.username), ("userProfileId", "1"), ("userEmail", account.username)] {
            writer.key(key)
            writer.string(value)
        }
        writer.endObject()
        return GoogleReaderRoutes.json(writer)
    }

    /// Each source as `feed/<id>`, its tags as its categories; `url` is the source's own feed here (or the address
    /// it reads), `htmlUrl` its page here.
    func subscriptions() -> Response {
        var writer = JSONWriter(capacity: 256 + directory.feeds.count * 256)
        writer.beginObject()
        writer.key("subscriptions")
        writer.beginArray()
        for feed in directory.feeds {
            writer.beginObject()
            writer.key("id")
            writer.string("feed/" + feed.id)
            writer.key("title")
            writer.string(feed.id)
            writer.key("categories")
            writer.beginArray()
            for tag in feed.tags {
                writer.beginObject()
                writer.key("id")
                writer.string(GoogleReaderStream.labelPrefix + tag)
                writer.key("label")
                writer.string(tag)
                writer.endObject()
            }
            writer.endArray()
            writer.key("url")
            writer.string(feed.url?.absoluteString ?? base + "/feed.atom?source=" + feed.id)
            writer.key("htmlUrl")
            writer.string(base + "/sources/" + feed.id)
            writer.key("iconUrl")
            writer.string("")
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return GoogleReaderRoutes.json(writer)
    }

    /// The starred state and one folder per tag.
    func tags() -> Response {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("tags")
        writer.beginArray()
        writer.beginObject()
        writer.key("id")
        writer.string(GoogleReaderStream.starred)
        writer.endObject()
        for tag in directory.tags {
            writer.beginObject()
            writer.key("id")
            writer.string(GoogleReaderStream.labelPrefix + tag)
            writer.key("label")
            writer.string(tag)
            writer.key("type")
            writer.string("folder")
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return GoogleReaderRoutes.json(writer)
    }

    /// Unread items per feed, per folder and in the reading list, from the archive's statistics.
    func unreadCount() async throws(ReaderProblem) -> Response {
        let stats = try await ReaderService.archive(setup) { archive throws(SourceError) in try archive.stats() }
        var bySource: [String: ArchiveStats] = [:]
        for entry in stats { bySource[entry.sourceID] = entry }
        var rows: [(id: String, count: Int, newest: Date?)] = []
        func add(_ id: String, _ sources: [String]) {
            let entries = sources.compactMap { bySource[$0] }
            let count = entries.reduce(0) { $0 + $1.unread }
            guard count > 0 else { return }
            rows.append((id, count, entries.compactMap(\.newestFirstSeen).max()))
        }
        for feed in directory.feeds { add("feed/" + feed.id, [feed.id]) }
        for tag in directory.tags { add(GoogleReaderStream.labelPrefix + tag, directory.sourceIDs(tagged: tag)) }
        add(GoogleReaderStream.readingList, directory.sourceIDs)
        var writer = JSONWriter(capacity: 256 + rows.count * 96)
        writer.beginObject()
        writer.key("max")
        writer.int(rows.map(\.count).max() ?? 0)
        writer.key("unreadcounts")
        writer.beginArray()
        for row in rows {
            writer.beginObject()
            writer.key("id")
            writer.string(row.id)
            writer.key("count")
            writer.int(row.count)
            writer.key("newestItemTimestampUsec")
            writer.string(String(Int64(((row.newest ?? now()).timeIntervalSince1970 * 1_000_000).rounded())))
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return GoogleReaderRoutes.json(writer)
    }
}
