import Foundation
import HTTPClient
@testable import Server
import Testing

/// What the reader APIs refuse, and how: bad credentials 401, bad input 400 with a message naming it, never a 500.
@Suite("serve: reader API refusals")
struct ReaderErrorTests {
    @Test("wrong logins are 401; a forged, missing or Bearer credential is 401; the serve token is not needed")
    func authentication() async throws {
        let harness = try await ReaderFixture.start(token: "serve-token-4d1f0a")
        let wrong = try await harness.form("/accounts/ClientLogin", "Email=ann&Passwd=nope")
        #expect(wrong.status == 401 && wrong.text.contains("BadAuthentication"))
        #expect(try await harness.form("/accounts/ClientLogin", "Email=ann").status == 400)
        let session = try await ReaderSession.login(harness)
        #expect(!session.auth.contains(ReaderFixture.password), "the token is not the password")
        #expect(try await session.get("/reader/api/0/tag/list?output=json").status == 200, "no serve token needed")
        for header in ["GoogleLogin auth=forged", "GoogleLogin", "Bearer \(session.auth)"] {
            let reply = try await harness.request("/reader/api/0/tag/list?output=json", headers: [("Authorization", header)])
            #expect(reply.status == 401, "\(header): \(reply.status)")
        }
        let lowercase = try await harness.request("/reader/api/0/tag/list", headers: [("Authorization", "googlelogin auth=\(session.auth)")])
        #expect(lowercase.status == 200, "the scheme's case does not matter")
        #expect(try await harness.request("/api/items").status == 401, "the rest of serve still needs its token")
        try await harness.stop()
    }

    static let badInputs = [
        ("GET", "/reader/api/0/stream/items/ids?output=json", "", "s is required"),
        ("GET", "/reader/api/0/stream/items/ids?s=feed/nope", "", "no feed 'feed/nope'"),
        ("GET", "/reader/api/0/stream/items/ids?s=user/-/state/com.google/nothing", "", "unknown stream"),
        ("GET", "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&c=zz", "", "not a continuation"),
        ("GET", "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&n=0", "", "n must be 1 or more"),
        ("GET", "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&n=ten", "", "n must be a whole number"),
        ("GET", "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&ot=yesterday", "", "ot must be a time"),
        ("GET", "/reader/api/0/stream/contents/user%2F-%2Fstate%2Fcom.google%2Freading-list?r=x", "", "r must be o"),
        ("POST", "/reader/api/0/stream/items/contents", "i=not-an-id", "is not an item id"),
        ("POST", "/reader/api/0/stream/items/contents", "T=", "i is required"),
        ("POST", "/reader/api/0/edit-tag", "i=1", "needs a tag"),
        ("POST", "/reader/api/0/mark-all-as-read", "T=x", "s is required"),
        ("POST", "/reader/api/0/subscription/edit", "ac=subscribe&s=feed/http://example.com/", "edit the manifest"),
    ]

    @Test("bad input is a 400 naming what is wrong")
    func badInput() async throws {
        let harness = try await ReaderFixture.start()
        let session = try await ReaderSession.login(harness)
        for (method, path, form, message) in Self.badInputs {
            let reply: HTTPResponse
            if method == "GET" {
                reply = try await session.get(path)
            } else {
                reply = try await session.post(path, form: form)
            }
            #expect(reply.status == 400, "\(path): \(reply.status) \(reply.text)")
            #expect(reply.text.contains(message), "\(path): \(reply.text)")
        }
        try await harness.stop()
    }

    @Test("Fever: no ?api is a 400; a bad mark is a 400; an unknown call is 404; a password variable not set is a 503 naming it; without a reader account, 404 saying how to add one")
    func feverAndOff() async throws {
        let harness = try await ReaderFixture.start()
        _ = try await ReaderSession.login(harness)
        #expect(try await harness.form("/fever/", "api_key=\(ReaderFixture.feverKey)").status == 400)
        let mark = try await harness.form("/fever/?api", "api_key=\(ReaderFixture.feverKey)&mark=item&as=burnt&id=1")
        #expect(mark.status == 400 && mark.text.contains("as must be read, unread, saved or unsaved"))
        let items = try await harness.form("/fever/?api&items&with_ids=1,x", "api_key=\(ReaderFixture.feverKey)")
        #expect(items.status == 400)
        let session = try await ReaderSession.login(harness)
        #expect(try await session.get("/reader/api/0/no-such-call").status == 404)
        try await harness.stop()

        let unset = try await ServeHarness.start(
            manifest: ReaderFixture.manifest().replacingOccurrences(of: ReaderFixture.password, with: "${READER_PASSWORD_NOT_SET}"),
            files: try ReaderFixture.files())
        let unusable = try await unset.form("/accounts/ClientLogin", "Email=ann&Passwd=x")
        #expect(unusable.status == 503 && unusable.text.contains("$READER_PASSWORD_NOT_SET"), "\(unusable.text)")
        try await unset.stop()

        let off = try await ReaderFixture.start(reader: false)
        let reply = try await off.form("/accounts/ClientLogin", "Email=ann&Passwd=x")
        #expect(reply.status == 404 && reply.text.contains("\"reader\""))
        #expect(try await off.form("/fever/?api", "api_key=x").status == 404)
        try await off.stop()
    }
}
