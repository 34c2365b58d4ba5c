import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderTesting
import Testing

@Suite("AsyncHTTPClient transport: abandoned attempts let go of their connection")
struct SwiftNIOHTTPClientTests {
    /// One connection per host, so a request can only be answered once the connection before it is free.
    static func oneConnectionClient() -> any HTTPFetching {
        LiveHTTPClientFactory(network: NetworkEnvironment([:])).makeClient(HTTPClientConfiguration(
            maxConnectionsPerHost: 1, requestTimeout: 20, retry: RetryPolicy(maxRetries: 0), sourceID: "test",
            proxy: .direct))
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
}
