import Domain
import Foundation
import HTTPClient
@testable import HTTPClientLive
import ProviderTesting
import Synchronization
import Testing

/// The process's shared transport (`TransportPool`): many sources' clients reuse a few connections, bounded by
/// the process-wide limit, while each source keeps its own `concurrency` and settings.
@Suite("Shared transport")
struct SharedTransportTests {
    /// Every path answers after `delay`, so requests overlap unless something holds them back.
    private func server(delay: TimeInterval) async throws -> FixtureServer {
        let server = try await FixtureServer.start()
        server.fallback(FixtureResponse.json(#"{"ok": true}"#).delayed(delay))
        return server
    }

    /// Sends `requests[i]` on `clients[i]`, all at once, and waits for every outcome.
    private func sendAll(_ clients: [any HTTPFetching], _ requests: [HTTPRequest]) async -> [Result<HTTPResponse, SourceError>] {
        await withTaskGroup(of: Result<HTTPResponse, SourceError>.self) { group in
            for (client, request) in zip(clients, requests) {
                group.addTask { await client.fetch(request) }
            }
            var results: [Result<HTTPResponse, SourceError>] = []
            for await result in group { results.append(result) }
            return results
        }
    }

    @Test("40 sources under a limit of 4 open at most 4 connections, not one per source",
          arguments: [ProxySetting.environment, .direct])
    func connectionsFollowTheLimit(proxy: ProxySetting) async throws {
        let server = try await server(delay: 0.05)
        // The limit is unusual so these sources get a pool entry of their own, not one of another test's.
        let factory = LiveHTTPClientFactory(network: NetworkEnvironment([:]), requestSlots: RequestSlots(limit: 4))
        let clients = (0..<40).map { index in
            factory.makeClient(HTTPClientConfiguration(
                maxConnectionsPerHost: 6, retry: RetryPolicy(maxRetries: 0), sourceID: "feed\(index)", proxy: proxy))
        }
        let requests = (0..<40).map { HTTPRequest.get(server.baseURL, path: "/feed/\($0).xml") }
        let results = await sendAll(clients, requests)
        await server.stop()

        #expect(results.allSatisfy { $0.value?.status == 200 }, "\(results.compactMap(\.error))")
        #expect(server.requestCount == 40)
        #expect(server.peakConcurrentRequests <= 4)
        #expect(server.peakOpenConnections <= 4, "\(proxy): \(server.peakOpenConnections) connections open at once")
        // Reused across sources: before, each source's client opened a connection of its own (40).
        #expect(server.acceptedConnections <= 8, "\(proxy): \(server.acceptedConnections) connections accepted")
    }

    @Test("a source's concurrency still holds when the shared connections would allow more",
          arguments: [ProxySetting.environment, .direct])
    func perSourceConcurrency(proxy: ProxySetting) async throws {
        let server = try await server(delay: 0.1)
        let factory = LiveHTTPClientFactory(network: NetworkEnvironment([:]), requestSlots: RequestSlots(limit: 64))
        let client = factory.makeClient(HTTPClientConfiguration(
            maxConnectionsPerHost: 2, retry: RetryPolicy(maxRetries: 0), sourceID: "many", proxy: proxy))
        let requests = (0..<8).map { HTTPRequest.get(server.baseURL, path: "/item/\($0)") }
        let results = await sendAll(Array(repeating: client, count: 8), requests)
        await server.stop()

        #expect(results.allSatisfy { $0.value?.status == 200 }, "\(results.compactMap(\.error))")
        #expect(server.requestCount == 8)
        #expect(server.peakConcurrentRequests <= 2, "\(proxy): \(server.peakConcurrentRequests) in flight")
        #expect(server.peakConcurrentRequests >= 1)
    }

    @Test("sources share a transport only when nothing a request cannot carry differs")
    func sharingFollowsSettings() throws {
        let network = NetworkEnvironment([:])
        func nio(_ configuration: HTTPClientConfiguration) -> ObjectIdentifier {
            SwiftNIOHTTPClient(configuration: configuration, network: network).sharedClientID(for: nil)
        }
        var base = HTTPClientConfiguration(maxConnectionsPerHost: 3, requestTimeout: 17)
        base.requestSlots = RequestSlots(limit: 23)
        var otherConcurrency = base
        otherConcurrency.maxConnectionsPerHost = 5
        otherConcurrency.sourceID = "other"
        var otherCA = base
        otherCA.caFile = URL(fileURLWithPath: "/nonexistent/private-ca.pem")
        var otherTimeout = base
        otherTimeout.requestTimeout = 18

        // Per-source settings go with the request: the same connections serve both.
        #expect(nio(base) == nio(otherConcurrency))
        // Trust and connect timeout are the client's: never shared.
        #expect(nio(base) != nio(otherCA))
        #expect(nio(base) != nio(otherTimeout))

        func session(_ configuration: HTTPClientConfiguration) -> ObjectIdentifier {
            ObjectIdentifier(TransportPool.shared.session(.init(maxConnectionsPerHost: configuration.sharedConnectionLimit)).session)
        }
        #expect(session(base) == session(otherConcurrency))
        var unlimited = base
        unlimited.requestSlots = nil
        #expect(session(base) != session(unlimited))
    }
}
