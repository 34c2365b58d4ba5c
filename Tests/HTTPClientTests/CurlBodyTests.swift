import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderTesting
import Testing

/// Bodies larger than one of libcurl's 16 KB pieces, gathered by the write callback: the caller must get the same
/// bytes, and failures must stay failures.
@Suite("CurlHTTPClient with large bodies")
struct CurlBodyTests {
    /// 1 MB and 3 bytes: several batches and a remainder, in a pattern that shows a lost, doubled or moved
    /// piece.
    static let body = Data((0..<1_000_003).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) })

    @Test("a large body reaches the caller byte for byte, sent at once or with a pause mid-body",
          arguments: [false, true])
    func wholeBody(paused: Bool) async throws {
        let server = try await FixtureServer.start()
        let response = FixtureResponse(status: 200, body: Self.body)
        server.route("/big", paused ? response.with(.stallBody(afterBytes: 300_001, seconds: 0.2)) : response)
        let answer = try await makeClient().fetch(.get(server.baseURL, path: "/big")).get()
        #expect(answer.status == 200)
        #expect(answer.body.count == Self.body.count)
        #expect(answer.body == Self.body)
        await server.stop()
    }

    @Test("a large body cut short is a network error, not a short success")
    func truncated() async throws {
        let server = try await FixtureServer.start()
        server.route("/big", FixtureResponse(status: 200, body: Self.body).with(.truncateBody(afterBytes: 200_001)))
        let error = try #require(await makeClient(maxRetries: 1).fetch(.get(server.baseURL, path: "/big")).error)
        #expect(error.kind == .network)
        #expect(server.requestCount == 2)
        await server.stop()
    }

    @Test("a body that stalls past the deadline is a timeout, and the abandoned transfer's bytes go nowhere")
    func stalledPastDeadline() async throws {
        let server = try await FixtureServer.start()
        let stalled = FixtureResponse(status: 200, body: Self.body).with(.stallBody(afterBytes: 200_001, seconds: 8))
        server.route("/big", stalled, .json(#"{"ok":true}"#))
        let client = makeClient(maxRetries: 0)
        let error = try #require(
            await client.fetch(.get(server.baseURL, path: "/big"), cancellation: deadlineToken(1)).error)
        #expect(error.kind == .timeout)
        // The abandoned transfer was removed with what it had gathered; the client goes on at once.
        let next = try await client.fetch(.get(server.baseURL, path: "/big")).get()
        #expect(next.text == #"{"ok":true}"#)
        await server.stop()
    }
}
