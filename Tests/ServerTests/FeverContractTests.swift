import Foundation
import HTTPClient
@testable import Server
import Testing

/// The Fever API as Fluent Reader (`fever.ts`: `?api&…` in the URL, `api_key` and marks in the body) and Read You
/// (`FeverAPI.kt`: `?api=&…` in the URL, marks in the URL too, `api_key` alone in the body) call it.
@Suite("serve: Fever API as real clients call it")
struct FeverContractTests {
    private func fever(_ harness: ServeHarness, _ query: String, _ form: String = "") async throws -> [String: Any] {
        let reply = try await harness.form("/fever/?" + query, "api_key=\(ReaderFixture.feverKey)" + form)
        guard reply.status == 200 else { throw ServeHarness.Failure("\(query): \(reply.status) \(reply.text)") }
        return try reply.json()
    }

    private func ids(_ text: Any?) -> [Int] {
        ((text as? String) ?? "").split(separator: ",").compactMap { Int($0) }
    }

    @Test("Fluent Reader: auth, feeds with feeds_groups, groups, items down from max_id, unread and saved ids, marks")
    func fluentReader() async throws {
        let harness = try await ReaderFixture.start()
        _ = try await ReaderSession.login(harness)
        let auth = try await fever(harness, "api")
        #expect(auth["auth"] as? Int == 1 && auth["api_version"] as? Int == 3)
        let wrong = try await harness.form("/fever/?api", "api_key=0123456789abcdef0123456789abcdef")
        #expect(try wrong.status == 200 && (wrong.json()["auth"] as? Int) == 0, "a wrong key is 200 with auth 0")

        let feedsReply = try await fever(harness, "api&feeds")
        let feeds = try #require(feedsReply["feeds"] as? [[String: Any]])
        #expect(feeds.compactMap { $0["title"] as? String } == ["news", "notes"])
        var feedIDs: [String: Int] = [:]
        for feed in feeds {
            if let title = feed["title"] as? String, let id = feed["id"] as? Int { feedIDs[title] = id }
        }
        let feedsGroups = try #require(feedsReply["feeds_groups"] as? [[String: Any]])
        let groups = try #require(try await fever(harness, "api&groups")["groups"] as? [[String: Any]])
        #expect(groups.compactMap { $0["title"] as? String } == ["News"])
        let newsGroup = try #require(groups.first?["id"] as? Int)
        #expect(feedsGroups.first { $0["group_id"] as? Int == newsGroup }?["feed_ids"] as? String == String(feedIDs["news"] ?? -1))

        let page = try await fever(harness, "api&items&max_id=9007199254740991")
        let items = try #require(page["items"] as? [[String: Any]])
        let itemIDs = items.compactMap { $0["id"] as? Int }
        #expect(itemIDs.count == ReaderFixture.itemCount && itemIDs == itemIDs.sorted(by: >), "the newest archive ids first")
        #expect(page["total_items"] as? Int == ReaderFixture.itemCount)
        #expect(items.allSatisfy { Set(feedIDs.values).contains($0["feed_id"] as? Int ?? 0) && $0["html"] is String && $0["is_read"] as? Int == 0 })
        let older = try #require(try await fever(harness, "api&items&max_id=\(itemIDs[1])")["items"] as? [[String: Any]])
        #expect(older.compactMap { $0["id"] as? Int } == Array(itemIDs.dropFirst(2)))
        let newer = try #require(try await fever(harness, "api&items&since_id=\(itemIDs[2])")["items"] as? [[String: Any]])
        #expect(newer.compactMap { $0["id"] as? Int } == [itemIDs[1], itemIDs[0]], "since_id: ascending")

        #expect(Set(ids(try await fever(harness, "api&unread_item_ids")["unread_item_ids"])) == Set(itemIDs))
        #expect(try await fever(harness, "api&saved_item_ids")["saved_item_ids"] as? String == "")
        _ = try await fever(harness, "api", "&mark=item&as=read&id=\(itemIDs[0])")
        _ = try await fever(harness, "api", "&mark=item&as=saved&id=\(itemIDs[1])")
        #expect(Set(ids(try await fever(harness, "api&unread_item_ids")["unread_item_ids"])) == Set(itemIDs.dropFirst()))
        #expect(ids(try await fever(harness, "api&saved_item_ids")["saved_item_ids"]) == [itemIDs[1]])
        let marked = try #require(try await fever(harness, "api&items&with_ids=\(itemIDs[0]),\(itemIDs[1])")["items"] as? [[String: Any]])
        #expect(marked.map { [$0["is_read"] as? Int ?? -1, $0["is_saved"] as? Int ?? -1] } == [[1, 0], [0, 1]])

        let before = Int(Date().timeIntervalSince1970) + 1
        _ = try await fever(harness, "api", "&mark=feed&as=read&id=\(feedIDs["news"] ?? 0)&before=\(before)")
        let unread = Set(ids(try await fever(harness, "api&unread_item_ids")["unread_item_ids"]))
        let newsIDs = Set(items.filter { $0["feed_id"] as? Int == feedIDs["news"] }.compactMap { $0["id"] as? Int })
        #expect(unread.isDisjoint(with: newsIDs) && unread.count == ReaderFixture.itemCount - ReaderFixture.newsCount - (newsIDs.contains(itemIDs[0]) ? 0 : 1))
        try await harness.stop()
    }

    @Test("Read You: ?api=& with the call and its marks in the URL; group read before a time; favicons may be empty")
    func readYou() async throws {
        let harness = try await ReaderFixture.start()
        _ = try await ReaderSession.login(harness)
        #expect(try await fever(harness, "api=&")["auth"] as? Int == 1)
        #expect((try await fever(harness, "api=&favicons")["favicons"] as? [Any])?.isEmpty == true)
        let items = try #require(try await fever(harness, "api=&items&since_id=0")["items"] as? [[String: Any]])
        let itemIDs = items.compactMap { $0["id"] as? Int }
        #expect(itemIDs.count == ReaderFixture.itemCount && itemIDs == itemIDs.sorted())
        _ = try await fever(harness, "api=&&mark=item&as=saved&id=\(itemIDs[0])")
        #expect(ids(try await fever(harness, "api=&saved_item_ids")["saved_item_ids"]) == [itemIDs[0]])
        _ = try await fever(harness, "api=&&mark=item&as=unsaved&id=\(itemIDs[0])")
        #expect(try await fever(harness, "api=&saved_item_ids")["saved_item_ids"] as? String == "")

        let group = try #require((try await fever(harness, "api=&groups")["groups"] as? [[String: Any]])?.first?["id"] as? Int)
        // Before 2003-05-28: the group's two entries of 20 and 27 May are marked, those of 30 May and 3 June not.
        _ = try await fever(harness, "api=&&mark=group&as=read&id=\(group)&before=1054080000")
        let unread = Set(ids(try await fever(harness, "api=&unread_item_ids")["unread_item_ids"]))
        #expect(unread.count == ReaderFixture.itemCount - 2)
        _ = try await fever(harness, "api=&&mark=group&as=read&id=0&before=\(Int(Date().timeIntervalSince1970) + 1)")
        #expect(try await fever(harness, "api=&unread_item_ids")["unread_item_ids"] as? String == "", "group 0 is every feed")
        try await harness.stop()
    }
}
