import Foundation
import ProviderTesting
@testable import Server
import Testing

/// Two servers on one PostgreSQL store (each running the sources, as replicas of one deployment): a reader app
/// may talk to either, and what it marks on one is what the other shows.
@Suite("Reader APIs on a shared PostgreSQL store",
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct ReaderSharedStoreTests {
    static let (readingList, read, starred) = (ReaderContractTests.readingList, ReaderContractTests.read, ReaderContractTests.starred)

    @Test("read and starred set through one server are seen through the other; both give the same item ids")
    func replicasAgree() async throws {
        let store = try await TestPostgres.makeDatabase()
        let manifest = ReaderFixture.manifest().replacingOccurrences(
            of: #""reader":"#, with: #""store": {"url": "\#(store)"}, "reader":"#)
        let files = try ReaderFixture.files()
        // One manifest in one place, as replicas of a deployment share it (its directory is part of a local
        // source's identity).
        let directory = try ScratchDirectory.make("reader-replicas")
        let first = try await ServeHarness.start(manifest: manifest, files: files, in: directory)
        let second = try await ServeHarness.start(manifest: manifest, files: files, in: directory)
        try await first.ready()
        try await second.ready()
        let one = try await ReaderSession.login(first)
        let other = try await ReaderSession.login(second)

        let ids = try await one.ids("s=\(Self.readingList)&n=100")
        #expect(ids.count == ReaderFixture.itemCount)
        #expect(Set(try await other.ids("s=\(Self.readingList)&n=100")) == Set(ids), "one archive, one set of ids")

        let token = try await one.get("/reader/api/0/token").text
        #expect(try await one.post("/reader/api/0/edit-tag", form: "T=\(token)&i=\(ids[0])&a=\(Self.read)&a=\(Self.starred)").status == 200)
        let unread = try await other.ids("s=\(Self.readingList)&n=100&xt=\(Self.read)")
        #expect(unread.count == ReaderFixture.itemCount - 1 && !unread.contains(ids[0]))
        #expect(try await other.ids("s=\(Self.starred)&n=100") == [ids[0]])

        let fever = try await second.form("/fever/?api&unread_item_ids", "api_key=\(ReaderFixture.feverKey)")
        let feverUnread = (try fever.json()["unread_item_ids"] as? String ?? "").split(separator: ",").map(String.init)
        #expect(Set(feverUnread) == Set(unread), "the Fever API of the other server agrees")
        try await first.stop()
        try await second.stop()
    }
}
