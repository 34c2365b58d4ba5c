import Foundation
@testable import Server
import Testing

@Suite("serve: listening, tokens and refresh")
struct SecurityTests {
    @Test("--listen parses host:port, [v6]:port; only 127/8, ::1 and localhost count as loopback", arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080, true), ("127.1.2.3:0", "127.1.2.3", 0, true), ("localhost:9000", "localhost", 9000, true),
        ("[::1]:8080", "::1", 8080, true), ("0.0.0.0:8080", "0.0.0.0", 8080, false), ("192.168.1.2:80", "192.168.1.2", 80, false),
        ("[::]:8080", "::", 8080, false), ("127.0.0.1.example.com:80", "127.0.0.1.example.com", 80, false),
    ])
    func listenAddresses(_ text: String, _ host: String, _ port: Int, _ loopback: Bool) throws {
        let address = try #require(ListenAddress(text))
        #expect(address.host == host)
        #expect(address.port == port)
        #expect(address.isLoopback == loopback)
        #expect(ListenAddress(address.description) == address)
    }

    @Test("a malformed --listen is refused", arguments: ["8080", "host", "host:", ":80", "host:70000", "::1:80", "[::1]80", "a:b"])
    func badListen(_ text: String) {
        #expect(ListenAddress(text) == nil)
    }

    @Test("a non-loopback address without a token is refused; with one it runs; a token never prints")
    func refusal() throws {
        let open = ServeConfiguration(listen: try #require(ListenAddress("0.0.0.0:8080")))
        #expect(open.refusal?.contains("token") == true)
        let token = try #require(ServeToken("  s3cret-token-value\n"))
        #expect(token.value == "s3cret-token-value")
        #expect(!"\(token)".contains("s3cret"))
        #expect(ServeConfiguration(listen: try #require(ListenAddress("0.0.0.0:8080")), token: token).refusal == nil)
        #expect(ServeConfiguration().refusal == nil, "the default, 127.0.0.1:8080, needs no token")
        #expect(ServeToken(" \n") == nil)
    }

    @Test("token comparison is by digest: equal only for the same text")
    func comparison() {
        #expect(AccessControl.constantTimeEqual("abc", "abc"))
        #expect(!AccessControl.constantTimeEqual("abc", "abd"))
        #expect(!AccessControl.constantTimeEqual("abc", "abcd"))
        #expect(!AccessControl.constantTimeEqual("", "abc"))
    }

    static let manifest = """
        {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
          {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}}
        ]}
        """
    static let files = ["data/notes.ndjson": ndjson([("n1", "One", nil)])]

    @Test("without a token: reads and refreshes are open to loopback names; another name (DNS rebinding) and another origin are refused")
    func withoutToken() async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files)
        try await harness.ready()
        #expect(try await harness.request("/api/report").status == 200)
        try harness.write("data/notes.ndjson", ndjson([("n2", "Two", nil)]))
        let accepted = try await harness.request("/api/sources/notes/refresh", method: .post)
        #expect(accepted.status == 202)
        #expect(try accepted.json()["id"] as? String == "notes")
        let refreshed = try await harness.poll("/api/report") { (try? $0.itemKeys()) == ["notes/n2"] }
        #expect(try refreshed.itemKeys() == ["notes/n2"], "the refresh ran the source again")
        let port = try #require(harness.base.split(separator: ":").last)
        for name in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)"] {
            #expect(try await harness.request("/api/report", headers: [("Host", name)]).status == 200, "\(name)")
        }
        for name in ["evil.example:\(port)", "127.0.0.1.evil.example", "evil.example"] {
            let rebound = try await harness.request("/api/report", headers: [("Host", name)])
            #expect(rebound.status == 403, "\(name)")
            #expect(try rebound.json()["error"] != nil)
        }
        let crossSite = try await harness.request(
            "/api/sources/notes/refresh", method: .post, headers: [("Origin", "http://evil.example")])
        #expect(crossSite.status == 403)
        let sameSite = try await harness.request(
            "/api/sources/notes/refresh", method: .post, headers: [("Origin", harness.base)])
        #expect(sameSite.status == 202, "the dashboard's own button")
        try await harness.stop()
    }

    @Test("with a token: 401 without it or with a wrong one, 202 + id with it; 404 for an unknown source; probes open")
    func withToken() async throws {
        let secret = "serve-test-token-8d2f1c"
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files, token: secret)
        try await harness.poll("/readyz") { $0.status == 200 }
        #expect(try await harness.request("/healthz").status == 200)
        for path in ["/api/report", "/api/items", "/api/sources", "/metrics", "/events"] {
            let reply = try await harness.request(path)
            #expect(reply.status == 401, "\(path)")
            #expect(reply.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(try await harness.request(path, headers: [("Authorization", "Bearer wrong")]).status == 401)
        }
        let bearer = [("Authorization", "Bearer \(secret)")]
        #expect(try await harness.request("/api/report", headers: bearer).status == 200)
        #expect(try await harness.request("/api/sources/notes/refresh", method: .post).status == 401)
        try harness.write("data/notes.ndjson", ndjson([("n2", "Two", nil)]))
        let accepted = try await harness.request("/api/sources/notes/refresh", method: .post, headers: bearer)
        #expect(accepted.status == 202)
        #expect(try accepted.json()["id"] as? String == "notes")
        let refreshed = try await harness.poll("/api/report", headers: bearer) { (try? $0.itemKeys()) == ["notes/n2"] }
        #expect(try refreshed.itemKeys() == ["notes/n2"], "the refresh ran the source again")
        #expect(try await harness.request("/api/sources/nope/refresh", method: .post, headers: bearer).status == 404)
        let crossSite = try await harness.request(
            "/api/sources/notes/refresh", method: .post, headers: bearer + [("Origin", "http://evil.example")])
        #expect(crossSite.status == 403)
        for reply in [try await harness.request("/api/report", headers: bearer), try await harness.request("/metrics", headers: bearer)] {
            #expect(!reply.text.contains(secret), "no secret in a response")
        }
        try await harness.stop()
    }

    @Test("an over-long request target is a 414")
    func longTarget() async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files)
        let reply = try await harness.request("/api/items?q=" + String(repeating: "a", count: 5000))
        #expect(reply.status == 414)
        try await harness.stop()
    }
}
