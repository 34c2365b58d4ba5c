import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderTesting
import Testing

@Suite("CurlHTTPClient against a loopback server")
struct CurlHTTPClientTests {
    @Test("a 200 reaches the caller with its status, case-insensitive headers and body, and names the tool")
    func success() async throws {
        let server = try await FixtureServer.start()
        server.route("/data", try .file(fixture("success_zocca_docs_example_standard_units_pyopenweathermap.json"),
                                       headers: [("X-RateLimit-Remaining", "41")]))
        let response = try await makeClient().fetch(.get(server.baseURL, path: "/data")).get()
        #expect(response.status == 200)
        #expect(response.headers["x-ratelimit-remaining"] == "41")
        #expect(response.headers["CONTENT-TYPE"]?.hasPrefix("application/json") == true)
        #expect(response.text.contains("Zocca"))
        #expect(response.retries == 0)
        #expect(server.requests.first?.header("User-Agent") == HTTPClientConfiguration.defaultUserAgent)
        #expect(HTTPClientConfiguration.defaultUserAgent.hasPrefix("aggregate/"))
        await server.stop()
    }

    @Test("extra request headers and strictly encoded query values reach the server")
    func requestHeadersAndQuery() async throws {
        let server = try await FixtureServer.start()
        server.route("/search", .json("{}"))
        let request = HTTPRequest.get(
            server.baseURL, path: "/search", query: [URLQueryItem(name: "q", value: "São Paulo & a+b")],
            headers: ["Accept": "application/vnd.github+json", "Authorization": "Bearer \(secretKey)"],
            secrets: [secretKey])
        _ = try await makeClient().fetch(request).get()
        let received = try #require(server.requests.first)
        #expect(received.query("q") == "São Paulo & a+b")
        #expect(received.header("accept") == "application/vnd.github+json")
        #expect(received.header("authorization") == "Bearer \(secretKey)")
        await server.stop()
    }

    @Test("an answered request lets go of its completion (a source's items) at once, not at the attempt's timeout")
    func completionReleased() async throws {
        /// Says when it is freed: the event the test waits for.
        final class Held: Sendable {
            let freed: @Sendable () -> Void
            init(freed: @escaping @Sendable () -> Void) { self.freed = freed }
            deinit { freed() }
        }
        let server = try await FixtureServer.start()
        server.route("/x", .json("{}"))
        let (freed, signal) = AsyncStream<Void>.makeStream()
        do {
            let held = Held { signal.finish() }
            // An hour's deadline: a completion kept by the attempt's timer would outlive the wait below.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                makeClient().fetch(.get(server.baseURL, path: "/x"), cancellation: deadlineToken(3_600)) { _ in
                    withExtendedLifetime(held) { continuation.resume() }
                }
            }
        }
        // The completion returns on a pool thread just after resuming us; its end frees `held`.
        let released = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in freed {}
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(120))  // the bound of the wait, far under the deadline above
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(released, "the completion outlived the exchange's answer")
        await server.stop()
    }

    @Test("4xx and 5xx are never successes and map to the error taxonomy", arguments: [
        (401, [(String, String)](), SourceError.Kind.unauthorized),
        (403, [], .unauthorized),
        (403, [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1900000000")], .rateLimited),
        (404, [], .notFound),
        (422, [], .configuration),
        (418, [], .badResponse),
        (501, [], .network),
    ])
    func statusMapping(status: Int, headers: [(String, String)], kind: SourceError.Kind) async throws {
        let server = try await FixtureServer.start()
        server.route("/x", .json(#"{"message":"nope"}"#, status: status, headers: headers.map { (name: $0.0, value: $0.1) }))
        let result = await makeClient().send(.get(server.baseURL, path: "/x")) { _ in "nope" }
        let error = try #require(result.error)
        #expect(error.kind == kind)
        #expect(error.message.hasPrefix("HTTP \(status)"))
        #expect(error.message.contains("nope"))
        if kind == .rateLimited { #expect(error.message.contains("resets at 2030-03-17T17:46:40Z")) }
        #expect(server.requestCount == 1, "no retry on 4xx other than 429, nor on 501")
        await server.stop()
    }

    @Test("429 with Retry-After is waited out and retried, then succeeds")
    func retryAfterThenSuccess() async throws {
        let server = try await FixtureServer.start()
        server.route("/x", .json(#"{"cod":429}"#, status: 429, headers: [("Retry-After", "1")]), .json(#"{"ok":true}"#))
        let start = DispatchTime.now()
        let response = try await makeClient().send(.get(server.baseURL, path: "/x")).get()
        #expect(response.status == 200)
        // At least the slow first attempt was timed out and retried (a loaded machine may need one more).
        #expect(response.retries >= 1)
        #expect(server.requestCount == response.retries + 1)
        #expect(server.requestCount == 2)
        #expect(elapsed(since: start) >= 0.9, "Retry-After: 1 was honoured")
        await server.stop()
    }

    @Test("a 500 is retried with backoff, then succeeds")
    func serverErrorThenSuccess() async throws {
        let server = try await FixtureServer.start()
        server.route("/x", .json("{}", status: 500), .json("{}", status: 502), .json(#"{"ok":true}"#))
        let response = try await makeClient().send(.get(server.baseURL, path: "/x")).get()
        #expect(response.status == 200)
        #expect(response.retries == 2)
        #expect(server.requestCount == 3)
        await server.stop()
    }

    @Test("a server that keeps failing is tried maxRetries + 1 times, then reported as a network error")
    func retriesExhausted() async throws {
        let server = try await FixtureServer.start()
        server.route("/x", .json("{}", status: 503))
        let error = try #require(await makeClient(maxRetries: 3).send(.get(server.baseURL, path: "/x")).error)
        #expect(error.kind == .network)
        #expect(error.message.contains("HTTP 503"))
        #expect(error.message.contains("after 3 retries"))
        #expect(server.requestCount == 4)
        await server.stop()
    }

    @Test("a Retry-After longer than the time left is not waited for: rateLimited with the reset time at once")
    func retryAfterDoesNotFit() async throws {
        let server = try await FixtureServer.start()
        server.route("/x", .json("{}", status: 429, headers: [("Retry-After", "120")]), .json("{}"))
        let start = DispatchTime.now()
        let error = try #require(await makeClient().send(.get(server.baseURL, path: "/x"), cancellation: deadlineToken(20)).error)
        #expect(error.kind == .rateLimited)
        #expect(error.message.contains("resets at"))
        #expect(error.message.contains("(in 2 min)") || error.message.contains("(in 1 min 59 s)"))
        #expect(server.requestCount == 1)
        #expect(elapsed(since: start) < 60, "the 120 s Retry-After was not waited for")
        await server.stop()
    }

    @Test("a POST is never retried")
    func postNotRetried() async throws {
        let server = try await FixtureServer.start()
        server.route("/x", .json("{}", status: 500))
        let result = await makeClient().send(HTTPRequest(.post, url: server.baseURL.appendingPathComponent("x"), body: Data("{}".utf8)))
        #expect(result.error?.kind == .network)
        #expect(server.requestCount == 1)
        #expect(server.requests.first?.method == "POST")
        await server.stop()
    }

    @Test("a response slower than the source's deadline is a timeout, not a late success")
    func timeout() async throws {
        let server = try await FixtureServer.start()
        server.route("/slow", FixtureResponse.json("{}").delayed(8))
        // Had the request waited for the 8 s answer it would have succeeded: a timeout proves it ended at the
        // deadline, without a wall-clock bound a loaded machine could break.
        let error = try #require(await makeClient().fetch(.get(server.baseURL, path: "/slow"), cancellation: deadlineToken(1)).error)
        #expect(error.kind == .timeout)
        await server.stop()
    }

    @Test("a per-request timeout shorter than the deadline times the attempt out and retries it")
    func requestTimeoutRetries() async throws {
        let server = try await FixtureServer.start()
        // The first answer comes too late (8 s); the retries' answers are immediate. Retries to spare, as a
        // loaded machine can hold an immediate answer past the 3 s too.
        server.route("/x", FixtureResponse.json("{}").delayed(8), .json(#"{"ok":true}"#))
        let response = try await makeClient(requestTimeout: 3, maxRetries: 4).fetch(.get(server.baseURL, path: "/x")).get()
        #expect(response.status == 200)
        // At least the slow first attempt was timed out and retried (a loaded machine may need one more).
        #expect(response.retries >= 1)
        #expect(server.requestCount == response.retries + 1)
        await server.stop()
    }

    @Test("cancelling the token ends the request with a timeout, not the late answer")
    func cancellation() async throws {
        let server = try await FixtureServer.start()
        server.route("/slow", FixtureResponse.json("{}").delayed(8))
        let token = CancellationToken()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { token.cancel() }
        let error = try #require(await makeClient().fetch(.get(server.baseURL, path: "/slow"), cancellation: token).error)
        #expect(error.kind == .timeout)
        await server.stop()
    }

    @Test("a body over the cap is refused with a clear message", arguments: [false, true])
    func bodyCap(chunked: Bool) async throws {
        let server = try await FixtureServer.start()
        let big = FixtureResponse(status: 200, body: Data(repeating: UInt8(ascii: "a"), count: 300_000))
        // Stalling mid-body makes the cap trip while reading, not on Content-Length alone.
        server.route("/big", chunked ? big.with(.stallBody(afterBytes: 200_000, seconds: 0.2)) : big)
        let error = try #require(await makeClient(maxResponseBytes: 100_000).fetch(.get(server.baseURL, path: "/big")).error)
        #expect(error.kind == .badResponse)
        #expect(error.message.contains("larger than"))
        #expect(error.message.contains("MiB"))
        #expect(server.requestCount == 1, "an oversized body is not retried")
        await server.stop()
    }

    @Test("the default cap is 16 MiB")
    func defaultCap() {
        #expect(HTTPClientConfiguration.defaultMaxResponseBytes == 16 * 1024 * 1024)
        #expect(HTTPClientConfiguration().maxResponseBytes == 16 * 1024 * 1024)
    }

    @Test("broken connections are network errors, retried like other transport failures", arguments: [
        FixtureResponse.Fault.closeWithoutResponse, .truncateBody(afterBytes: 10),
    ])
    func brokenConnections(fault: FixtureResponse.Fault) async throws {
        let server = try await FixtureServer.start()
        server.route("/x", FixtureResponse.json(String(repeating: " ", count: 100) + "{}").with(fault))
        let error = try #require(await makeClient(maxRetries: 1).fetch(.get(server.baseURL, path: "/x")).error)
        #expect(error.kind == .network)
        #expect(!error.message.contains("/x"), "no URL from the transport error leaks into the message")
        #expect(server.requestCount == 2)
        await server.stop()
    }

    @Test("a broken connection followed by a good answer recovers")
    func resetThenSuccess() async throws {
        let server = try await FixtureServer.start()
        server.route("/x", FixtureResponse.json("{}").with(.closeWithoutResponse), .json(#"{"ok":true}"#))
        let response = try await makeClient().fetch(.get(server.baseURL, path: "/x")).get()
        #expect(response.text == #"{"ok":true}"#)
        await server.stop()
    }

    @Test("a refused connection names the host and port, not the URL")
    func connectionRefused() async throws {
        let url = try await FixtureServer.refusedURL()
        let request = HTTPRequest.get(url, path: "/data", query: [URLQueryItem(name: "appid", value: secretKey)])
        let error = try #require(await makeClient(maxRetries: 0).fetch(request).error)
        #expect(error.kind == .network)
        #expect(error.message.contains("127.0.0.1"))
        #expect(!error.message.contains(secretKey))
    }

    @Test("malformed JSON is badResponse, never a success")
    func malformedJSON() async throws {
        let server = try await FixtureServer.start()
        server.route("/x", .json(#"{"main": {"temp": "#))
        let response = try await makeClient().send(.get(server.baseURL, path: "/x")).get()
        struct Shape: Decodable { var main: [String: Double] }
        let error = try #require(response.decode(Shape.self).error)
        #expect(error.kind == .badResponse)
        #expect(error.message.contains("not valid JSON"))
        await server.stop()
    }

    @Test("a wrong content type is named when the body does not decode")
    func wrongContentType() throws {
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                                    body: Data("<html>".utf8), url: URL(string: "http://127.0.0.1/")!)
        let error = try #require(response.decode([String: Int].self).error)
        #expect(error.message.contains("text/html"))
    }

    @Test("a credential is never sent over plain http to a host that is not loopback")
    func refusesPlainHTTPCredential() async throws {
        let request = HTTPRequest.get(URL(string: "http://api.openweathermap.org")!, path: "/data/2.5/weather",
                                      query: [URLQueryItem(name: "appid", value: secretKey)])
        let error = try #require(await makeClient().fetch(request).error)
        #expect(error.kind == .configuration)
        #expect(error.message.contains("https://"))
        #expect(!error.message.contains(secretKey))
        let bearer = HTTPRequest.get(URL(string: "http://ghe.example.com")!, path: "/x", headers: ["Authorization": "Bearer t"])
        #expect(await makeClient().fetch(bearer).error?.kind == .configuration)
    }

    @Test("connections per host follow the configured concurrency, past the usual 6 of a browser")
    func connectionsPerHost() async throws {
        let server = try await FixtureServer.start()
        // Each answer is held 2 s, so requests issued within 2 s of each other are seen together even on a
        // loaded machine; the proof is the server's count, not the clock.
        server.route("/x", FixtureResponse.json("{}").delayed(2))
        let client = makeClient(connections: 12)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask { _ = await client.fetch(.get(server.baseURL, path: "/x", query: [URLQueryItem(name: "i", value: "\(index)")])) }
            }
        }
        #expect(server.requestCount == 12)
        #expect(server.peakConcurrentRequests > 6)
        await server.stop()
    }
}
