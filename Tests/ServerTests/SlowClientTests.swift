import Foundation
import Testing

/// What clients that an HTTP library never imitates do to the server: stall mid-request, never read, send
/// oversized heads.
@Suite("serve: slow and oversized clients")
struct SlowClientTests {
    static let manifest = """
        {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
          {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}}
        ]}
        """

    /// Enough records that a page and a feed are far larger than a socket's buffers.
    static let files = ["data/notes.ndjson": ndjson((1...3000).map {
        ("n\($0)", "Note \($0) " + String(repeating: "padding text ", count: 40), nil)
    })]

    @Test("clients that stall mid-head or never read hold up nobody, and a stalled head is closed after the idle timeout")
    func stalledClients() async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files, idleTimeoutSeconds: 1)
        try await harness.ready()
        // Twenty heads that stop half way, and ten clients that ask for big bodies and never read them.
        let stalled = try (0..<20).map { _ in try RawConnection(port: harness.port) }
        for connection in stalled { connection.send("GET /api/items HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") }
        let deaf = try (0..<10).map { _ in try RawConnection(port: harness.port) }
        for connection in deaf {
            connection.send("GET /api/items?limit=500 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /feed.atom HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        }
        for _ in 0..<20 {
            let reply = try await harness.request("/api/items?limit=5")
            #expect(reply.status == 200)
            #expect(try reply.itemKeys().count == 5)
        }
        for connection in stalled {
            let answer = await connection.readUntilClosed(within: 300)
            #expect(answer != nil, "a stalled head is closed")
            #expect(String(decoding: answer ?? [], as: UTF8.self).contains("200 OK") == false, "and never answered")
        }
        try await harness.stop()
    }

    @Test("a header field over 8 KiB or a head over 16 KiB is refused with a 4xx and the connection closed; the server goes on",
          arguments: [
            "X-Big: " + String(repeating: "a", count: 9 * 1024) + "\r\n",
            (0..<40).map { "X-Many-\($0): " + String(repeating: "b", count: 500) + "\r\n" }.joined(),
          ])
    func oversizedHead(_ headers: String) async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files)
        let connection = try RawConnection(port: harness.port)
        connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n")
        let answer = try #require(await connection.readUntilClosed(within: 300), "the connection is closed")
        let statusLine = String(decoding: answer.prefix(while: { $0 != 13 }), as: UTF8.self)
        #expect(statusLine.hasPrefix("HTTP/1.1 4"), "\(statusLine)")
        // Answered as every refusal is: a JSON error, though the request never reached a route.
        let text = String(decoding: answer, as: UTF8.self).lowercased()
        #expect(text.contains("content-type: application/json") && text.contains(#"{"error":{"message":"#), "\(text.prefix(600))")
        #expect(try await harness.request("/healthz").status == 200)
        try await harness.stop()
    }

    @Test("connections past the cap wait their turn and are answered once others close")
    func connectionCap() async throws {
        let harness = try await ServeHarness.start(
            manifest: Self.manifest, files: Self.files, idleTimeoutSeconds: 1, maxConnections: 4)
        try await harness.ready()
        let idle = try (0..<4).map { _ in try RawConnection(port: harness.port) }
        for connection in idle { connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
        let late = try RawConnection(port: harness.port)
        late.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = try #require(await late.readUntilClosed(within: 300), "answered once the stalled ones timed out")
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        _ = idle
        try await harness.stop()
    }

    @Test("a method an /api route does not take is a 405 with Allow and a JSON error, not a 404")
    func methodNotAllowed() async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files)
        var answers: [String] = []
        for request in ["DELETE /api/items", "TRACE /api/report?limit=1", "GET /api/sources/notes/refresh", "PUT /api/openapi.json"] {
            let connection = try RawConnection(port: harness.port)
            connection.send("\(request) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answers.append(String(decoding: try #require(await connection.readUntilClosed(within: 300)), as: UTF8.self))
        }
        try await harness.stop()
        for (answer, allow) in zip(answers, ["GET, HEAD", "GET, HEAD", "POST", "GET, HEAD"]) {
            #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer.prefix(300))")
            #expect(answer.lowercased().contains("allow: \(allow.lowercased())\r\n"), "\(answer.prefix(300))")
            #expect(answer.contains(#"{"error":{"message":"#), "\(answer.prefix(300))")
        }
    }
}
