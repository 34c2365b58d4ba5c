import Foundation
import HTTPClient
import ProviderTesting
import Testing

@Suite("The loopback client")
struct LoopbackClientTests {
    @Test("answers come as sent: an encoded body not inflated, a redirect not followed, a 503 asked once")
    func asSent() async throws {
        let server = try await FixtureServer.start()
        let encoded = Data([0x1F, 0x8B, 0x08, 0x00, 0xDE, 0xAD, 0xBE, 0xEF])  // not even valid gzip: an inflating client fails
        server.route("/encoded", FixtureResponse(headers: [("Content-Encoding", "gzip")], body: encoded))
        server.route("/moved", FixtureResponse(status: 303, headers: [("Location", "/encoded")]))
        server.route("/down", FixtureResponse(status: 503, body: Data("down".utf8)))

        let plain = try await LoopbackClient.send(HTTPRequest(url: server.baseURL.appending(path: "encoded")))
        #expect(plain.status == 200)
        #expect(plain.body == encoded)
        #expect(plain.headers["content-encoding"] == "gzip")
        let moved = try await LoopbackClient.send(HTTPRequest(url: server.baseURL.appending(path: "moved")))
        #expect(moved.status == 303)
        #expect(moved.headers["Location"] == "/encoded")
        let down = try await LoopbackClient.send(HTTPRequest(url: server.baseURL.appending(path: "down")))
        #expect(down.status == 503)
        #expect(down.text == "down")
        #expect(server.requests(path: "/encoded").count == 1, "the redirect was not followed")
        #expect(server.requests(path: "/down").count == 1, "the 503 was not asked again")
        #expect(server.acceptedConnections == 3, "a connection of its own for each request")
        await server.stop()
    }

    @Test("a request goes as written: method, body with its length, headers, a Host given, the query untouched")
    func requestAsWritten() async throws {
        let server = try await FixtureServer.start()
        server.fallback(.json("{}"))
        let url = try #require(URL(string: "\(server.baseURL.absoluteString)/form?a=1,2&b=%2F"))
        let reply = try await LoopbackClient.send(HTTPRequest(
            .post, url: url, headers: ["Content-Type": "application/x-www-form-urlencoded", "Host": "example.test"],
            body: Data("token=abc".utf8)))
        #expect(reply.status == 200)
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/form?a=1,2&b=%2F")
        #expect(request.body == Data("token=abc".utf8))
        #expect(request.header("Content-Length") == "9")
        #expect(request.header("Host") == "example.test")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        await server.stop()
    }

    @Test("only http:// servers on this machine")
    func loopbackOnly() async throws {
        await #expect(throws: LoopbackClientError.self) {
            try await LoopbackClient.send(HTTPRequest(url: try #require(URL(string: "http://example.com/"))))
        }
        await #expect(throws: LoopbackClientError.self) {
            try await LoopbackClient.send(HTTPRequest(url: try #require(URL(string: "https://127.0.0.1:1/"))))
        }
    }

    @Test("a stream's lines come as they arrive, while the rest of the body is still held back by the server")
    func linesAsTheyCome() async throws {
        let server = try await FixtureServer.start()
        server.route("/events", FixtureResponse(
            headers: [("Content-Type", "text/event-stream")], body: Data("one\r\n\ntwo\nthree".utf8),
            fault: .stallBody(afterBytes: 6, seconds: 600)))
        let stream = try await LoopbackClient.open(HTTPRequest(url: server.baseURL.appending(path: "events")))
        #expect(stream.status == 200)
        #expect(stream.headers["Content-Type"] == "text/event-stream")
        #expect(try await stream.nextLine() == "one")
        #expect(try await stream.nextLine() == "")
        #expect(server.requestsInFlight == 1, "the server has not sent the rest yet")
        server.releaseStalls()
        #expect(try await stream.nextLine() == "two")
        #expect(try await stream.nextLine() == "three", "the last line without a break")
        #expect(try await stream.nextLine() == nil)
        await server.stop()
    }

    @Test("cancelling the task that reads a stream closes its connection")
    func cancellation() async throws {
        let server = try await FixtureServer.start()
        server.route("/events", FixtureResponse(body: Data("one\ntwo\n".utf8), fault: .stallBody(afterBytes: 4, seconds: 600)))
        let url = server.baseURL.appending(path: "events")
        let (firstLine, lines) = AsyncStream<String?>.makeStream()
        let reader = Task {
            let stream = try await LoopbackClient.open(HTTPRequest(url: url))
            lines.yield(try await stream.nextLine())
            return try await stream.nextLine()  // waits on the stalled rest
        }
        var iterator = firstLine.makeAsyncIterator()
        #expect(await iterator.next() == "one")
        #expect(server.openConnections == 1)
        reader.cancel()
        #expect(try await eventually { server.openConnections == 0 }, "the connection closed while the server held it")
        let rest = try? await reader.value
        #expect(rest == nil, "the read ended without a line")
        server.releaseStalls()
        await server.stop()
    }

    @Test("a connection closed before any answer is its own error, which says the request may go again")
    func closedBeforeAnswer() async throws {
        let server = try await FixtureServer.start()
        server.route("/gone", FixtureResponse(fault: .closeWithoutResponse))
        let url = server.baseURL.appending(path: "gone")
        await #expect(throws: LoopbackClientError.closedBeforeAnswer(url.absoluteString)) {
            try await LoopbackClient.send(HTTPRequest(url: url))
        }
        await server.stop()
    }

    @Test("no head within the timeout is an error naming the URL")
    func timeout() async throws {
        let server = try await FixtureServer.start()
        server.route("/late", FixtureResponse(body: Data("late".utf8)).delayed(600))
        let url = server.baseURL.appending(path: "late")
        let error = await #expect(throws: LoopbackClientError.self) {
            try await LoopbackClient.send(HTTPRequest(url: url), timeout: .milliseconds(200))
        }
        #expect(error?.description.contains(url.absoluteString) == true)
        #expect(try await eventually { server.openConnections == 0 }, "and the connection is closed")
        server.releaseStalls()
        await server.stop()
    }
}
