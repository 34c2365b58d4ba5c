import App
import Domain
import Foundation
import Hummingbird

/// The Fever API (`/fever/?api`), as Reeder, Fluent Reader, Read You and others speak it: `api_key` is
/// md5("username:password"); a wrong key is answered 200 with `auth: 0`, as Fever did. Feeds are the manifest's
/// sources, groups their tags; items are the archive's, by archive id, 50 a page.
struct FeverRoutes: Sendable {
    static let pageSize = 50
    /// The most ids `unread_item_ids` and `saved_item_ids` list (the archive's retention bounds them anyway).
    static let maxListedIDs = 100_000

    let service: ReaderService
    let logins: LoginThrottle
    var now: @Sendable () -> Date = { Date() }

    static func handles(_ path: String) -> Bool { path == "/fever" || path == "/fever/" || path == "/fever/index.php" }

    func respond(_ request: Request, from address: String) async -> Response {
        do throws(ReaderProblem) {
            let setup = try service.current()
            guard let account = setup.account else { throw ReaderProblem(.notFound, "reader sync is off") }
            let parameters = try await ReaderParameters.read(request)
            guard parameters.has("api") else {
                throw ReaderProblem(.badRequest, "the Fever API answers requests with ?api (and api_key in the form)")
            }
            if let seconds = logins.retryAfter(for: address, at: now()) {
                throw ReaderProblem(.tooManyRequests, "too many wrong api_keys from this address; try again in \(seconds) s")
            }
            var writer = JSONWriter(capacity: 4096)
            writer.beginObject()
            writer.key("api_version")
            writer.int(3)
            guard let key = parameters.first("api_key"), account.accepts(feverAPIKey: key) else {
                logins.failed(address, at: now())
                writer.key("auth")
                writer.int(0)
                writer.endObject()
                return GoogleReaderRoutes.json(writer)
            }
            logins.succeeded(address)
            writer.key("auth")
            writer.int(1)
            let calls = FeverCalls(setup: setup, parameters: parameters, base: GoogleReaderRoutes.base(request), now: now)
            try await calls.write(to: &writer)
            writer.endObject()
            return GoogleReaderRoutes.json(writer)
        } catch {
            return error.response
        }
    }
}

/// The members one authenticated Fever request asks for, written into its response object.
struct FeverCalls: Sendable {
    let setup: ReaderService.Setup
    let parameters: ReaderParameters
    let base: String
    let now: @Sendable () -> Date

    var directory: ReaderDirectory { setup.directory }

    func write(to writer: inout JSONWriter) async throws(ReaderProblem) {
        // A mark first, so the lists asked for with it show its effect.
        if let mark = parameters.first("mark") { try await self.mark(mark) }
        let stats = try await ReaderService.archive(setup) { archive throws(SourceError) in try archive.stats() }
        let feedIDs = Set(directory.sourceIDs)
        let current = stats.filter { feedIDs.contains($0.sourceID) }
        writer.key("last_refreshed_on_time")
        writer.int(Int((current.compactMap(\.newestFirstSeen).max() ?? now()).timeIntervalSince1970))
        if parameters.has("groups") { groups(to: &writer) }
        if parameters.has("feeds") { feeds(current, to: &writer) }
        if parameters.has("groups") || parameters.has("feeds") { feedsGroups(to: &writer) }
        if parameters.has("favicons") {
            writer.key("favicons")
            writer.beginArray()
            writer.endArray()
        }
        if parameters.has("items") { try await items(total: current.reduce(0) { $0 + $1.items }, to: &writer) }
        if parameters.has("unread_item_ids") { try await ids("unread_item_ids", read: false, starred: nil, to: &writer) }
        if parameters.has("saved_item_ids") { try await ids("saved_item_ids", read: nil, starred: true, to: &writer) }
        if parameters.has("links") {
            writer.key("links")
            writer.beginArray()
            writer.endArray()
        }
    }

    private func groups(to writer: inout JSONWriter) {
        writer.key("groups")
        writer.beginArray()
        for tag in directory.tags {
            writer.beginObject()
            writer.key("id")
            writer.int(directory.feverGroupIDs[tag] ?? 0)
            writer.key("title")
            writer.string(tag)
            writer.endObject()
        }
        writer.endArray()
    }

    private func feeds(_ stats: [ArchiveStats], to writer: inout JSONWriter) {
        var newest: [String: Date] = [:]
        for entry in stats { newest[entry.sourceID] = entry.newestFirstSeen }
        writer.key("feeds")
        writer.beginArray()
        for feed in directory.feeds {
            writer.beginObject()
            writer.key("id")
            writer.int(directory.feverFeedIDs[feed.id] ?? 0)
            writer.key("favicon_id")
            writer.int(0)
            writer.key("title")
            writer.string(feed.id)
            writer.key("url")
            writer.string(feed.url?.absoluteString ?? base + "/feed.atom?source=" + feed.id)
            writer.key("site_url")
            writer.string(base + "/sources/" + feed.id)
            writer.key("is_spark")
            writer.int(0)
            writer.key("last_updated_on_time")
            writer.int(Int(newest[feed.id]?.timeIntervalSince1970 ?? 0))
            writer.endObject()
        }
        writer.endArray()
    }

    private func feedsGroups(to writer: inout JSONWriter) {
        writer.key("feeds_groups")
        writer.beginArray()
        for tag in directory.tags {
            writer.beginObject()
            writer.key("group_id")
            writer.int(directory.feverGroupIDs[tag] ?? 0)
            writer.key("feed_ids")
            writer.string(directory.sourceIDs(tagged: tag).compactMap { directory.feverFeedIDs[$0].map(String.init) }.joined(separator: ","))
            writer.endObject()
        }
        writer.endArray()
    }
}
