import Domain
import Foundation
import HTTPClient
import ProviderKit
import ProviderTesting
import Synchronization
import Testing

/// A shared store (as PostgreSQL is) over the SQLite one, counting the fetch leases it hands out.
final class CountingSharedStore: SharedResponseCacheStore {
    private struct NoLease: ResponseFetchLease {
        func release() {}
    }

    private let inner: any ResponseCacheStore
    private let leases = Atomic<Int>(0)
    var leasesTaken: Int { leases.load(ordering: .relaxed) }

    init(_ inner: any ResponseCacheStore) {
        self.inner = inner
    }

    func response(forKey key: String) throws(SourceError) -> StoredResponse? { try inner.response(forKey: key) }
    func store(_ response: StoredResponse, forKey key: String, sourceID: String) throws(SourceError) {
        try inner.store(response, forKey: key, sourceID: sourceID)
    }
    func refresh(key: String, storedAt: Date, expiresAt: Date) throws(SourceError) {
        try inner.refresh(key: key, storedAt: storedAt, expiresAt: expiresAt)
    }
    func removeResponse(forKey key: String) throws(SourceError) { try inner.removeResponse(forKey: key) }

    func acquireFetchLease(forKey key: String, cancellation: CancellationToken) -> (any ResponseFetchLease)? {
        leases.add(1, ordering: .relaxed)
        return NoLease()
    }

    func rateLimit(_ key: String) throws(SourceError) -> Date? { nil }
    func recordRateLimit(_ key: String, until: Date) throws(SourceError) {}
}

@Suite("Fetch leases on a shared response cache")
struct SharedCacheLeaseTests {
    @Test("a fetch takes the shared store's lease, unless the source is claimed by this process (a fleet worker)",
          arguments: [true, false])
    func leaseOnlyWhenShared(leasesFetches: Bool) async throws {
        let server = try await FixtureServer.start()
        server.route("/weather", .json(CachingHTTPClientTests.body))
        let shared = CountingSharedStore(try TemporaryStore().store)
        let policy = ResponseCachePolicy(
            store: shared, sourceID: "weather", ttlSeconds: 300, leasesFetches: leasesFetches)
        let client = CachingHTTPClient(upstream: makeClient(maxRetries: 0), policy: policy)

        let response = try await client.fetch(HTTPRequest.get(server.baseURL, path: "/weather")).get()
        await server.stop()

        #expect(response.status == 200 && server.requestCount == 1)
        #expect(shared.leasesTaken == (leasesFetches ? 1 : 0))
        #expect(policy.activity.recorded == [.miss], "the response is stored either way")
    }
}
