import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderTesting
import Synchronization
import Testing

/// The process's shared transport (`CurlLoop`, one libcurl multi handle): many sources' clients reuse a few connections, bounded by
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

    @Test("40 sources under a limit of 4 open at most 4 connections, not one per source")
    func connectionsFollowTheLimit() async throws {
        let server = try await server(delay: 0.05)
        // libcurl's cache of idle connections is the process's, shared with the suites running beside this one, and
        // when it is full the oldest idle connection is closed: made larger than they can fill, so that none of this
        // test's connections is closed for theirs (it only grows).
        _ = LiveHTTPClientFactory(network: NetworkEnvironment([:]), requestSlots: RequestSlots(limit: 4_096))
        let factory = LiveHTTPClientFactory(network: NetworkEnvironment([:]), requestSlots: RequestSlots(limit: 4))
        let clients = (0..<40).map { index in
            factory.makeClient(HTTPClientConfiguration(
                maxConnectionsPerHost: 6, retry: RetryPolicy(maxRetries: 0), sourceID: "feed\(index)"))
        }
        let requests = (0..<40).map { HTTPRequest.get(server.baseURL, path: "/feed/\($0).xml") }
        let results = await sendAll(clients, requests)
        await server.stop()

        #expect(results.allSatisfy { $0.value?.status == 200 }, "\(results.compactMap(\.error))")
        #expect(server.requestCount == 40)
        #expect(server.peakConcurrentRequests <= 4)
        #expect(server.peakOpenConnections <= 4, "\(server.peakOpenConnections) connections open at once")
        // Reused across sources: before, each source's client opened a connection of its own (40).
        #expect(server.acceptedConnections <= 8, "\(server.acceptedConnections) connections accepted")
    }

    @Test("a source's concurrency still holds when the shared connections would allow more")
    func perSourceConcurrency() async throws {
        let server = try await server(delay: 0.1)
        let factory = LiveHTTPClientFactory(network: NetworkEnvironment([:]), requestSlots: RequestSlots(limit: 64))
        let client = factory.makeClient(HTTPClientConfiguration(
            maxConnectionsPerHost: 2, retry: RetryPolicy(maxRetries: 0), sourceID: "many"))
        let requests = (0..<8).map { HTTPRequest.get(server.baseURL, path: "/item/\($0)") }
        let results = await sendAll(Array(repeating: client, count: 8), requests)
        await server.stop()

        #expect(results.allSatisfy { $0.value?.status == 200 }, "\(results.compactMap(\.error))")
        #expect(server.requestCount == 8)
        #expect(server.peakConcurrentRequests <= 2, "\(server.peakConcurrentRequests) in flight")
        #expect(server.peakConcurrentRequests >= 1)
    }

    @Test("answers their sources have not read yet are bounded (the requests in flight and two more at 1); the network is not held")
    func unreadAnswersAreBounded() async throws {
        let server = try await server(delay: 0)
        let slots = RequestSlots(limit: 1)
        let answers = try #require(slots.answers)
        #expect(answers.limit == 3)
        let factory = LiveHTTPClientFactory(network: NetworkEnvironment([:]), requestSlots: slots)
        let reading = Atomic(0)
        let gate = DispatchSemaphore(value: 0)
        let outcomes = Mutex<[Int]>([])
        for index in 0..<5 {
            let client = factory.makeClient(HTTPClientConfiguration(retry: RetryPolicy(maxRetries: 0), sourceID: "feed\(index)"))
            client.fetch(.get(server.baseURL, path: "/feed/\(index).xml"), cancellation: CancellationToken()) { result in
                reading.add(1, ordering: .relaxed)
                gate.wait()  // the source is still reading this answer
                outcomes.withLock { $0.append(result.value?.status ?? 0) }
            }
        }
        let threeReading = try await eventually { reading.load(ordering: .relaxed) == 3 }
        let requestsFree = try await eventually { slots.usage.inUse == 0 }
        let (unread, requestsMeanwhile) = (answers.usage, server.requestCount)
        for _ in 0..<5 { gate.signal() }
        let allRead = try await eventually { outcomes.withLock { $0.count } == 5 }
        await server.stop()

        #expect(threeReading && requestsFree, "the three answers were read while no request held the network")
        #expect(unread.inUse == 3 && unread.waiting == 2, "\(unread): three unread answers, two exchanges waiting for room")
        #expect(requestsMeanwhile == 3, "no request went out while the bound was full")
        #expect(allRead && outcomes.withLock { $0 } == [200, 200, 200, 200, 200])
        #expect(try await eventually { answers.usage.inUse == 0 }, "every place back once its answer was read")
    }
}
