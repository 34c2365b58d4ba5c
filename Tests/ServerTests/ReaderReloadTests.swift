import App
import Foundation
import HTTPClient
@testable import Server
import Testing

@Suite("serve: reader sync follows a reload")
struct ReaderReloadTests {
    @Test("SIGHUP with a new password and new tags: the old token is refused, the new password logs in, folders change, read state stays")
    func reload() async throws {
        let harness = try await ReaderFixture.start()
        let session = try await ReaderSession.login(harness)
        let unread = try await session.ids("s=user/-/state/com.google/reading-list&xt=user/-/state/com.google/read")
        #expect(try await session.post("/reader/api/0/edit-tag", form: "i=\(unread[0])&a=user/-/state/com.google/read").status == 200)

        let manifest = ReaderFixture.manifest()
            .replacingOccurrences(of: ReaderFixture.password, with: "new-password-8")
            .replacingOccurrences(of: #""tags": ["News"]"#, with: #""tags": ["Space"]"#)
        try harness.write("manifest.json", manifest)
        let container = try AppDIContainer.load(
            manifestAt: harness.directory.appendingPathComponent("manifest.json"),
            environment: ["AGGREGATE_HOME": harness.directory.appendingPathComponent("home").path])
        try harness.server.reload(container)

        #expect(try await session.get("/reader/api/0/tag/list").status == 401, "a token of the old password")
        #expect(try await harness.form("/accounts/ClientLogin", "Email=ann&Passwd=\(ReaderFixture.password)").status == 401)
        let login = try await harness.form("/accounts/ClientLogin", "Email=ann&Passwd=new-password-8")
        let auth = try #require(login.text.split(separator: "\n").first { $0.hasPrefix("Auth=") }?.dropFirst(5))
        let renewed = ReaderSession(harness: harness, auth: String(auth))
        let tags = try await renewed.get("/reader/api/0/tag/list?output=json")
        #expect((try tags.json()["tags"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            == ["user/-/state/com.google/starred", "user/-/label/Space"])
        #expect(try await renewed.ids("s=user/-/state/com.google/reading-list&it=user/-/state/com.google/read") == [unread[0]],
                "read state is the archive's, not the account's")
        try await harness.stop()
    }
}
