import Foundation
import HTTPClient
@testable import Server
import Testing

/// The request sequences real reader apps send, replayed over loopback (paths, parameters, headers and bodies
/// as their public sources write them: NetNewsWire's `ReaderAPICaller`, Fluent Reader's `greader.ts`, Read You's
/// `GoogleReaderAPI.kt`).
@Suite("serve: Google Reader API as real clients call it")
struct ReaderContractTests {
    static let readingList = "user/-/state/com.google/reading-list"
    static let read = "user/-/state/com.google/read"
    static let starred = "user/-/state/com.google/starred"

    @Test("NetNewsWire: text login, token, tags, subscriptions, ids since a fractional ot, contents by unpadded long id, edit-tag by padded hex")
    func netNewsWire() async throws {
        let harness = try await ReaderFixture.start()
        let session = try await ReaderSession.login(harness)
        let login = try await harness.form("/accounts/ClientLogin", "Email=ann&Passwd=correct-horse-7")
        // NetNewsWire splits every line at "=" and reads the second part: no line may lack one.
        #expect(login.text.split(separator: "\n").allSatisfy { $0.split(separator: "=").count == 2 })
        let token = try await session.get("/reader/api/0/token")
        #expect(token.status == 200 && !token.text.isEmpty)
        let tags = try await session.get("/reader/api/0/tag/list?output=json")
        let tagIDs = (try tags.json()["tags"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(tagIDs.contains("user/-/label/News") && tagIDs.contains(Self.starred))
        let subscriptions = try await session.get("/reader/api/0/subscription/list?output=json")
        let subs = try #require(try subscriptions.json()["subscriptions"] as? [[String: Any]])
        #expect(subs.compactMap { $0["id"] as? String } == ["feed/news", "feed/notes"])
        #expect(subs.allSatisfy { $0["url"] is String && $0["title"] is String })

        let since = String(Date().addingTimeInterval(-90 * 86_400).timeIntervalSince1970)
        #expect(since.contains("."), "NetNewsWire sends seconds with a fraction")
        let unread = try await session.ids("ot=\(since)&n=10000&output=json&xt=\(Self.read)&s=\(Self.readingList)")
        let all = try await session.ids("s=\(Self.readingList)&n=10000&xt=\(Self.read)&output=json")
        #expect(all.count == ReaderFixture.itemCount)
        #expect(Set(unread).isSubset(of: Set(all)))

        let unpadded = all.map { "i=tag:google.com,2005:reader/item/" + String(Int64($0)!, radix: 16) }.joined(separator: "&")
        let contents = try await session.post("/reader/api/0/stream/items/contents", form: "T=\(token.text)&output=json&\(unpadded)")
        #expect(contents.status == 200)
        let items = try #require(try contents.json()["items"] as? [[String: Any]])
        #expect(items.count == all.count)
        #expect(items.compactMap { $0["id"] as? String } == all.map { ReaderItemID.long(Int64($0)!) }, "in the order asked, long ids")
        #expect(items.allSatisfy { ($0["origin"] as? [String: Any])?["streamId"] is String && $0["published"] is Int && $0["crawlTimeMsec"] is String })

        let target = Int64(all[0])!
        let padded = String(format: "%.16llx", target)
        #expect(try await session.post("/reader/api/0/edit-tag", form: "T=\(token.text)&i=\(padded)&a=\(Self.read)").text == "OK")
        let afterRead = try await session.ids("s=\(Self.readingList)&n=10000&xt=\(Self.read)&output=json")
        #expect(afterRead.count == all.count - 1 && !afterRead.contains(all[0]))
        #expect(try await session.ids("s=\(Self.starred)&n=10000&output=json").isEmpty)
        #expect(try await session.post("/reader/api/0/edit-tag", form: "T=\(token.text)&i=\(padded)&a=\(Self.starred)").status == 200)
        #expect(try await session.ids("s=\(Self.starred)&n=10000&output=json") == [all[0]])
        #expect(try await session.post("/reader/api/0/edit-tag", form: "T=\(token.text)&i=\(padded)&r=\(Self.read)").status == 200)
        #expect(try await session.ids("s=\(Self.readingList)&n=10000&xt=\(Self.read)&output=json").count == all.count)

        let anonymous = try await harness.request("/reader/api/0/subscription/list?output=json")
        #expect(anonymous.status == 401)
        try await harness.stop()
    }

    @Test("Fluent Reader: login by form, ids with raw slashes, stream/contents without a stream, hex ids back, edit-tag and mark-all-as-read without T")
    func fluentReader() async throws {
        let harness = try await ReaderFixture.start()
        let session = try await ReaderSession.login(harness)
        #expect(try await session.get("/reader/api/0/user-info").status == 200)
        let subscriptions = try await session.get("/reader/api/0/subscription/list?output=json")
        let subs = try #require(try subscriptions.json()["subscriptions"] as? [[String: Any]])
        let news = try #require(subs.first { $0["id"] as? String == "feed/news" })
        #expect(((news["categories"] as? [[String: Any]])?.first?["label"] as? String) == "News", "the source's tag is its folder")

        let unread = try await session.ids("output=json&s=\(Self.readingList)&xt=\(Self.read)&n=1000")
        #expect(unread.count == ReaderFixture.itemCount)
        #expect(try await session.ids("output=json&s=\(Self.starred)&n=1000").isEmpty)

        let page = try await session.get("/reader/api/0/stream/contents?output=json&n=125")
        let items = try #require(try page.json()["items"] as? [[String: Any]])
        #expect(items.count == ReaderFixture.itemCount)
        // Fluent Reader keeps the long id's last path part (16 hex digits) and sends it back as it is.
        let compact = try items.map { item -> String in
            let id = try #require(item["id"] as? String)
            return String(id.split(separator: "/").last ?? "")
        }
        #expect(compact.allSatisfy { $0.count == 16 })
        #expect(items.allSatisfy { (($0["canonical"] as? [[String: Any]])?.first?["href"] as? String)?.hasPrefix("http") == true })
        #expect(items.allSatisfy { (($0["summary"] as? [String: Any])?["content"]) is String })
        let newsItem = try #require(items.first { ($0["origin"] as? [String: Any])?["streamId"] as? String == "feed/news" })
        #expect((newsItem["categories"] as? [String])?.contains("user/-/label/News") == true)

        let notes = try await session.ids("output=json&s=feed/notes&n=1000")
        let edit = try await session.post("/reader/api/0/edit-tag", form: "i=\(compact[0])&a=\(Self.read)")
        #expect(edit.status == 200)
        #expect(try await session.ids("output=json&s=\(Self.readingList)&xt=\(Self.read)&n=1000").count == ReaderFixture.itemCount - 1)
        let markAll = try await session.post("/reader/api/0/mark-all-as-read", form: "s=feed/news")
        #expect(markAll.status == 200)
        #expect(try await session.ids("output=json&s=feed/news&xt=\(Self.read)&n=1000").isEmpty)
        let left = try await session.ids("output=json&s=\(Self.readingList)&xt=\(Self.read)&n=1000")
        let readOne = String(Int64(bitPattern: UInt64(compact[0], radix: 16)!))
        #expect(Set(left) == Set(notes).subtracting([readOne]), "the notes are left unread, but the one read by its hex id")
        try await harness.stop()
    }

    @Test("Read You: JSON login with output=json in the form, ?output=json on every call, T in every form, read ids since, labels")
    func readYou() async throws {
        let harness = try await ReaderFixture.start()
        _ = try await ReaderSession.login(harness)
        let login = try await harness.form(
            "/accounts/ClientLogin",
            "output=json&Email=ann&Passwd=correct-horse-7&client=ReadYou&accountType=HOSTED_OR_GOOGLE&service=reader")
        #expect(login.status == 200)
        let auth = try #require(try login.json()["Auth"] as? String)
        let session = ReaderSession(harness: harness, auth: auth)
        let token = try await session.get("/reader/api/0/token").text
        let user = try await session.get("/reader/api/0/user-info?output=json")
        #expect(try user.json()["userName"] as? String == "ann")
        #expect(try await session.get("/reader/api/0/subscription/list?output=json").status == 200)

        let since = Int(Date().addingTimeInterval(-86_400).timeIntervalSince1970)
        let unread = try await session.ids("output=json&s=\(Self.readingList)&xt=\(Self.read)&n=1000")
        #expect(unread.count == ReaderFixture.itemCount)
        #expect(try await session.ids("output=json&s=\(Self.read)&ot=\(since)&n=1000").isEmpty)

        let longIDs = unread.prefix(2).map { ReaderItemID.long(Int64($0)!) }
        let form = longIDs.map { "i=" + $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }.joined(separator: "&")
        let contents = try await session.post("/reader/api/0/stream/items/contents?output=json", form: form + "&T=\(token)")
        #expect(try (contents.json()["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == longIDs)

        #expect(try await session.post("/reader/api/0/edit-tag?output=json", form: "i=\(unread[0])&a=\(Self.read)&T=\(token)").status == 200)
        // `ot` is on the items' own dates (as Miniflux reads it): the fixture's are from 2003 and November 2026.
        let readNow = try await session.ids("output=json&s=\(Self.readingList)&it=\(Self.read)&ot=946684800&n=1000")
        #expect(readNow == [unread[0]])
        #expect(try await session.ids("output=json&s=\(Self.read)&ot=\(since + 2 * 86_400)&n=1000").isEmpty)
        let label = "user/-/label/News"
        #expect(try await session.ids("output=json&s=\(label)&n=1000").count == ReaderFixture.newsCount)
        #expect(try await session.post("/reader/api/0/mark-all-as-read?output=json", form: "s=\(label)&T=\(token)").status == 200)
        #expect(try await session.ids("output=json&s=\(label)&xt=\(Self.read)&n=1000").isEmpty)
        try await harness.stop()
    }
}
