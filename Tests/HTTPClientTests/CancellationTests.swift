import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderTesting
import Testing

@Suite("Cancellation: abandoned attempts let go of their connection and their slot")
struct CancellationTests {
    /// One connection per host, so a request can only be answered once the connection before it is free.
    static func oneConnectionClient() -> any HTTPFetching {
        LiveHTTPClientFactory(network: NetworkEnvironment([:])).makeClient(HTTPClientConfiguration(
            maxConnectionsPerHost: 1, requestTimeout: 20, retry: RetryPolicy(maxRetries: 0), sourceID: "test"))
    }

    @Test("a cancelled request closes its connection: the next one on a one-connection client is answered")
    func cancelledAttemptFreesItsConnection() async throws {
        let server = try await FixtureServer.start()
        let body = Data(try recordedWeather().utf8)
        // Far longer than the client's request timeout: only a stopped transfer frees the connection in time.
        server.route("/slow", FixtureResponse(status: 200, headers: [("Content-Type", "application/json")], body: body, delay: 120))
        server.route("/fast", FixtureResponse(status: 200, headers: [("Content-Type", "application/json")], body: body))
        let client = Self.oneConnectionClient()
        let token = CancellationToken()
        async let slow = client.fetch(.get(server.baseURL, path: "/slow"), cancellation: token)
        #expect(try await eventually { !server.requests(path: "/slow").isEmpty })
        token.cancel()
        #expect(await slow.error?.kind == .timeout)
        // Without the stop, the cancelled transfer would hold the only connection for its 21 s deadline, past
        // this request's 20 s timeout.
        let fast = await client.fetch(.get(server.baseURL, path: "/fast"))
        #expect(fast.value?.status == 200, "\(String(describing: fast.error))")
        #expect(fast.value?.body == body)
        await server.stop()
    }

    @Test("a source that times out mid-body closes its connection, and the next source starts in the slot it freed")
    func timedOutTransferFreesItsSlot() async throws {
        let server = try await FixtureServer.start()
        let body = Data(try recordedWeather().utf8)
        // Half the body, then nothing for a minute: only a stopped transfer ends before that.
        server.route("/stalled", FixtureResponse(status: 200, headers: [("Content-Type", "application/json")], body: body)
            .with(.stallBody(afterBytes: body.count / 2, seconds: 60)))
        server.route("/next", FixtureResponse(status: 200, headers: [("Content-Type", "application/json")], body: body))
        // One request in flight for the whole factory: the next source can only start in the stalled one's slot.
        let slots = RequestSlots(limit: 1)
        let factory = LiveHTTPClientFactory(network: NetworkEnvironment([:]), requestSlots: slots)
        let stalled = factory.makeClient(HTTPClientConfiguration(
            requestTimeout: 1, retry: RetryPolicy(maxRetries: 0), sourceID: "stalled"))
        let next = factory.makeClient(HTTPClientConfiguration(
            requestTimeout: 20, retry: RetryPolicy(maxRetries: 0), sourceID: "next"))
        async let first = stalled.fetch(.get(server.baseURL, path: "/stalled"))
        #expect(try await eventually { !server.requests(path: "/stalled").isEmpty })
        async let second = next.fetch(.get(server.baseURL, path: "/next"))
        #expect(await first.error?.kind == .timeout)
        let answered = await second
        #expect(answered.value?.body == body, "\(String(describing: answered.error))")
        #expect(slots.peakInUse == 1)
        // The stalled transfer's connection was closed (not kept for reuse mid-body): the second request needed a
        // connection of its own, and only that one may stay open, idle in libcurl's cache.
        #expect(server.acceptedConnections == 2)
        #expect(try await eventually { server.openConnections <= 1 }, "\(server.openConnections) connections open")
        await server.stop()
    }

    @Test("an answered exchange lets go of its client at once: neither its timer, its token nor its transfer holds it")
    func answeredExchangeIsReleased() async throws {
        let server = try await FixtureServer.start()
        server.route("/fast", FixtureResponse(status: 200, headers: [("Content-Type", "application/json")], body: Data("{}".utf8)))
        var client: CurlHTTPClient? = CurlHTTPClient(configuration: HTTPClientConfiguration(
            requestTimeout: 600, retry: RetryPolicy(maxRetries: 0), sourceID: "fast"))
        weak let released = client
        let answer = await client?.fetch(.get(server.baseURL, path: "/fast"))
        #expect(answer?.value?.status == 200)
        client = nil
        // Its timer would hold it for the 600 s timeout; the token (alive for its own deadline) and the transfer for ever.
        #expect(try await eventually { released == nil }, "the client outlived its answered request")
        await server.stop()
    }
}
