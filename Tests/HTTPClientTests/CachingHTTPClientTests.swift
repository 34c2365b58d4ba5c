import Domain
import Foundation
import HTTPClient
import ProviderKit
import ProviderTesting
import SQLiteStore
import Synchronization
import Testing

/// A clock the test moves forward, so expiry needs no waiting.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// A real SQLite store in a new temporary directory.
struct TemporaryStore {
    let directory: URL
    let database: AppDatabase

    init() throws {
        directory = ScratchDirectory.path("aggregate-cache")
        database = try AppDatabase.open(at: directory.appendingPathComponent("aggregate.sqlite"))
    }

    var store: SQLiteResponseCacheStore { SQLiteResponseCacheStore(database: database) }

    /// The database file and its WAL, as bytes.
    func fileBytes() throws -> Data {
        var data = Data()
        for suffix in ["", "-wal"] {
            let url = URL(fileURLWithPath: database.url.path + suffix)
            if FileManager.default.fileExists(atPath: url.path) { data.append(try Data(contentsOf: url)) }
        }
        return data
    }
}

@Suite("The HTTP response cache, through a real SQLite store and the loopback server")
struct CachingHTTPClientTests {
    static let body = #"{"name":"Seoul","main":{"temp":21.3}}"#

    func client(_ store: TemporaryStore, ttl: Double = 300, mode: CacheMode = .normal, clock: TestClock)
        -> (CachingHTTPClient, CacheActivity)
    {
        let policy = ResponseCachePolicy(store: store.store, sourceID: "weather", ttlSeconds: ttl, mode: mode)
        return (CachingHTTPClient(upstream: makeClient(maxRetries: 0), policy: policy, now: { clock.now }), policy.activity)
    }

    @Test("inside the TTL the second request is answered from the cache without reaching the server")
    func ttlHit() async throws {
        let server = try await FixtureServer.start()
        server.route("/weather", .json(Self.body))
        let store = try TemporaryStore(), clock = TestClock()
        let (cached, activity) = client(store, clock: clock)
        let request = HTTPRequest.get(server.baseURL, path: "/weather", query: [URLQueryItem(name: "q", value: "Seoul")])

        let first = try await cached.fetch(request).get()
        clock.advance(299)
        let second = try await cached.fetch(request).get()
        #expect(server.requestCount == 1, "the warm request made no request")
        #expect(first.body == second.body && second.status == 200)
        #expect(second.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(activity.recorded == [.miss, .hit])

        clock.advance(2)  // past the TTL, no validator: a plain new request
        _ = try await cached.fetch(request).get()
        #expect(server.requestCount == 2)
        await server.stop()
    }

    @Test("a stale entry is revalidated with If-None-Match and If-Modified-Since; a 304 serves and refreshes it")
    func revalidation() async throws {
        let server = try await FixtureServer.start()
        let lastModified = "Wed, 21 Oct 2026 07:28:00 GMT"
        server.route("/weather", .json(Self.body, headers: [("ETag", "\"v1\""), ("Last-Modified", lastModified)]),
                     FixtureResponse(status: 304, headers: [("ETag", "\"v1\"")]))
        let store = try TemporaryStore(), clock = TestClock()
        let (cached, activity) = client(store, ttl: 60, clock: clock)
        let request = HTTPRequest.get(server.baseURL, path: "/weather")

        _ = try await cached.fetch(request).get()
        clock.advance(61)
        let revalidated = try await cached.fetch(request).get()
        #expect(server.requestCount == 2)
        let conditional = try #require(server.requests.last)
        #expect(conditional.header("If-None-Match") == "\"v1\"")
        #expect(conditional.header("If-Modified-Since") == lastModified)
        #expect(revalidated.status == 200 && revalidated.text == Self.body, "the stored body answers a 304")
        #expect(activity.recorded == [.miss, .revalidated])

        clock.advance(30)  // the 304 made the entry fresh again
        _ = try await cached.fetch(request).get()
        #expect(server.requestCount == 2)
        await server.stop()
    }

    @Test("the server's max-age is honoured when shorter than the TTL, and no-store is never kept")
    func serverDirectives() async throws {
        let server = try await FixtureServer.start()
        server.route("/short", .json(Self.body, headers: [("Cache-Control", "public, max-age=10")]))
        server.route("/never", .json(Self.body, headers: [("Cache-Control", "no-store")]))
        let store = try TemporaryStore(), clock = TestClock()
        let (cached, _) = client(store, ttl: 300, clock: clock)

        _ = try await cached.fetch(.get(server.baseURL, path: "/short")).get()
        clock.advance(5)
        _ = try await cached.fetch(.get(server.baseURL, path: "/short")).get()
        #expect(server.requests(path: "/short").count == 1, "fresh for max-age")
        clock.advance(6)
        _ = try await cached.fetch(.get(server.baseURL, path: "/short")).get()
        #expect(server.requests(path: "/short").count == 2, "stale after max-age although the TTL is longer")

        _ = try await cached.fetch(.get(server.baseURL, path: "/never")).get()
        _ = try await cached.fetch(.get(server.baseURL, path: "/never")).get()
        #expect(server.requests(path: "/never").count == 2)
        #expect(try store.store.keys(sourceID: "weather").allSatisfy { !$0.contains("/never") })
        await server.stop()
    }

    @Test("offline: a stored entry of any age answers without the network; a request with none fails as not cached")
    func offline() async throws {
        let server = try await FixtureServer.start()
        server.route("/weather", .json(Self.body))
        let store = try TemporaryStore(), clock = TestClock()
        let (online, _) = client(store, ttl: 60, clock: clock)
        _ = try await online.fetch(.get(server.baseURL, path: "/weather")).get()
        clock.advance(3600)

        let (offline, activity) = client(store, ttl: 60, mode: .offline, clock: clock)
        let served = try await offline.fetch(.get(server.baseURL, path: "/weather")).get()
        #expect(served.text == Self.body)
        let missing = await offline.fetch(.get(server.baseURL, path: "/other"))
        #expect(missing.error?.kind == .network)
        #expect(missing.error?.message.contains("not cached") == true)
        #expect(server.requestCount == 1, "offline made no request at all")
        #expect(activity.status == .stale)
        #expect(activity.offlineMisses == 1)
        #expect(activity.oldestStaleAge == 3600)
        await server.stop()
    }

    @Test("--no-cache goes to the network although the entry is fresh, and still stores the answer")
    func refresh() async throws {
        let server = try await FixtureServer.start()
        server.route("/weather", .json(#"{"v":1}"#), .json(#"{"v":2}"#))
        let store = try TemporaryStore(), clock = TestClock()
        let (normal, _) = client(store, clock: clock)
        _ = try await normal.fetch(.get(server.baseURL, path: "/weather")).get()
        let (bypassing, activity) = client(store, mode: .refresh, clock: clock)
        let fresh = try await bypassing.fetch(.get(server.baseURL, path: "/weather")).get()
        #expect(fresh.text == #"{"v":2}"#)
        #expect(activity.status == .off)
        let afterwards = try await normal.fetch(.get(server.baseURL, path: "/weather")).get()
        #expect(afterwards.text == #"{"v":2}"#, "the bypassing run's answer was stored")
        #expect(server.requestCount == 2)
        await server.stop()
    }

    @Test("a source's cache status: any body from the network is a miss, else any 304 a revalidation, else a hit")
    func status() {
        func status(_ events: [CacheActivity.Event]) -> CacheStatus {
            let activity = CacheActivity()
            events.forEach(activity.record)
            return activity.status
        }
        #expect(status([]) == .off)
        #expect(status([.hit, .hit]) == .hit)
        #expect(status([.hit, .revalidated]) == .revalidated)
        #expect(status([.revalidated, .miss, .hit]) == .miss)
        #expect(status([.hit, .staleHit(age: 10)]) == .stale)
        #expect(status([.bypassed]) == .off)
    }

    @Test("a 5xx is passed on and never replaces the stored entry")
    func errorsNotStored() async throws {
        let server = try await FixtureServer.start()
        server.route("/weather", .json(Self.body), .json(#"{"message":"down"}"#, status: 503))
        let store = try TemporaryStore(), clock = TestClock()
        let (cached, _) = client(store, ttl: 60, clock: clock)
        _ = try await cached.fetch(.get(server.baseURL, path: "/weather")).get()
        clock.advance(61)
        let failed = try await cached.fetch(.get(server.baseURL, path: "/weather")).get()
        #expect(failed.status == 503)
        let key = try #require(try store.store.keys(sourceID: "weather").first)
        #expect(try store.store.response(forKey: key)?.body == Data(Self.body.utf8))
        await server.stop()
    }

    @Test("neither the API key nor the Authorization header reaches the database file or its WAL")
    func secretsNotStored() async throws {
        let server = try await FixtureServer.start()
        server.route("/weather", .json(Self.body, headers: [("Set-Cookie", "session=\(secretKey)x")]))
        let store = try TemporaryStore(), clock = TestClock()
        let (cached, _) = client(store, clock: clock)
        let token = "ghp_TOKENtoken0123456789"
        let request = HTTPRequest.get(
            server.baseURL, path: "/weather", query: [URLQueryItem(name: "q", value: "Seoul"), URLQueryItem(name: "appid", value: secretKey)],
            headers: ["Authorization": "Bearer \(token)"], secrets: [secretKey, token])
        _ = try await cached.fetch(request).get()
        _ = try await cached.fetch(request).get()
        #expect(server.requestCount == 1, "the response was stored")

        let bytes = try store.fileBytes()
        #expect(bytes.range(of: Data("Seoul".utf8)) != nil, "the file is readable as bytes: the check is real")
        #expect(bytes.range(of: Data(secretKey.utf8)) == nil)
        #expect(bytes.range(of: Data(token.utf8)) == nil)
        await server.stop()
    }
}

@Suite("Response cache keys")
struct ResponseCacheKeyTests {
    let base = URL(string: "https://api.example.org")!

    @Test("a key names the request but never its secrets: query keys, declared secrets and Authorization are hashed")
    func noSecrets() {
        let token = "ghp_TOKENtoken0123456789"
        let request = HTTPRequest.get(
            base, path: "/data", query: [URLQueryItem(name: "q", value: "Seoul"), URLQueryItem(name: "appid", value: secretKey)],
            headers: ["Authorization": "token \(token)", "Accept": "application/json"], secrets: [secretKey])
        let key = ResponseCacheKey.make(for: request)
        #expect(!key.contains(secretKey))
        #expect(!key.contains(token))
        #expect(key.hasPrefix("GET https://api.example.org/data?q=Seoul&appid=***"))
        #expect(key.contains("accept=application/json"))
        #expect(key.contains(" cred="))
    }

    @Test("two users' credentials never share an entry; the same credential always does")
    func credentialScoped() {
        func key(_ apiKey: String, _ token: String) -> String {
            ResponseCacheKey.make(for: .get(
                base, path: "/data", query: [URLQueryItem(name: "appid", value: apiKey)],
                headers: ["Authorization": "Bearer \(token)"]))
        }
        #expect(key("alice-key-123", "t1") == key("alice-key-123", "t1"))
        #expect(key("alice-key-123", "t1") != key("bob-key-456789", "t1"))
        #expect(key("alice-key-123", "t1") != key("alice-key-123", "t2"))
        #expect(!ResponseCacheKey.make(for: .get(base, path: "/public")).contains("cred="), "no credential, no hash")
    }
}
