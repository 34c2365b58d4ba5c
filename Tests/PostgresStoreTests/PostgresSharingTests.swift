import Domain
import Foundation
import PostgresStore
import ProviderKit
import ProviderTesting
import Synchronization
import Testing

/// What only a store shared by several processes does: fetch leases, one sender per sink, and connection
/// messages without the password.
@Suite("PostgreSQL store: leases, sink claims, connection errors",
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct PostgresSharingTests {
    static func open(_ url: String) throws -> (PostgresStoreDatabase, PostgresResponseCacheStore) {
        let database = try PostgresStoreDatabase.open(try PostgresStoreURL(url))
        return (database, PostgresResponseCacheStore(database: database))
    }

    @Test("a fetch lease is held by one process; another waits at most its deadline, and gets it once released")
    func fetchLease() async throws {
        let url = try await TestPostgres.makeDatabase()
        let (held, waitedOut, afterRelease) = try await blocking {
            let (_, first) = try Self.open(url)
            let (_, second) = try Self.open(url)
            let lease = first.acquireFetchLease(forKey: "k", cancellation: CancellationToken())
            let waiting = CancellationToken(deadline: .now() + 0.5)
            let waitedOut = second.acquireFetchLease(forKey: "k", cancellation: waiting)
            lease?.release()
            let afterRelease = second.acquireFetchLease(forKey: "k", cancellation: CancellationToken(deadline: .now() + 10))
            afterRelease?.release()
            return (lease != nil, waitedOut == nil, afterRelease != nil)
        }
        #expect(held)
        #expect(waitedOut, "the second process gave up at its deadline instead of waiting forever")
        #expect(afterRelease)
    }

    @Test("a lease this process holds is not taken again by it: a second acquire waits, and gets it once released")
    func leaseHeldInProcess() async throws {
        let url = try await TestPostgres.makeDatabase()
        let (waitedOut, afterRelease) = try await blocking {
            let (_, store) = try Self.open(url)
            let lease = store.acquireFetchLease(forKey: "k", cancellation: CancellationToken())
            // PostgreSQL's session locks count: taken again on the connection that holds it, it would be granted.
            let again = store.acquireFetchLease(forKey: "k", cancellation: CancellationToken(deadline: .now() + 0.5))
            lease?.release()
            let afterRelease = store.acquireFetchLease(forKey: "k", cancellation: CancellationToken(deadline: .now() + 10))
            afterRelease?.release()
            return (again == nil, afterRelease != nil)
        }
        #expect(waitedOut, "the second acquire in the same process waited for the first")
        #expect(afterRelease)
    }

    @Test("a process's calls and leases share a bounded set of connections: 32 threads and 50 leases open at most 9 sessions")
    func boundedConnections() async throws {
        let url = try await TestPostgres.makeDatabase()
        let name = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let threads = 32
        let answered = try await blocking { () -> Int in
            let (_, store) = try Self.open(url)
            let leases = (0..<50).compactMap { store.acquireFetchLease(forKey: "k\($0)", cancellation: CancellationToken()) }
            let done = DispatchGroup()
            let answered = Mutex(0)
            for thread in 0..<threads {
                done.enter()
                Thread {
                    defer { done.leave() }
                    for call in 0..<20 {
                        let response = StoredResponse(
                            status: 200, headers: [], body: Data("\(thread).\(call)".utf8), storedAt: Date(),
                            expiresAt: Date() + 60)
                        guard (try? store.store(response, forKey: "t\(thread)", sourceID: "s")) != nil,
                              (try? store.response(forKey: "t\(thread)"))?.body == response.body else { continue }
                        answered.withLock { $0 += 1 }
                    }
                }.start()
            }
            done.wait()
            for lease in leases { lease.release() }
            return leases.count == 50 ? answered.withLock { $0 } : -1
        }
        let sessions = try await TestPostgres.administer("SELECT sessions FROM pg_stat_database WHERE datname = '\(name)'")
        #expect(answered == threads * 20, "every call answered, and every lease had")
        let opened = try #require(Int(sessions.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(opened <= PostgresStoreDatabase.maxConnections + 1, "sessions opened: \(opened)")
    }

    @Test("a lease whose holder's session dies (a killed process) is released by the server")
    func leaseOfDeadHolder() async throws {
        let url = try await TestPostgres.makeDatabase()
        let name = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let (_, first) = try await blocking { try Self.open(url) }
        let lease = try await blocking { first.acquireFetchLease(forKey: "k", cancellation: CancellationToken()) }
        #expect(lease != nil)
        // What a kill -9 of the holder does to its session.
        try await TestPostgres.administer("""
            SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted
            AND database = (SELECT oid FROM pg_database WHERE datname = '\(name)')
            """)
        let taken = try await blocking {
            let (_, second) = try Self.open(url)
            let lease = second.acquireFetchLease(forKey: "k", cancellation: CancellationToken(deadline: .now() + 10))
            lease?.release()
            return lease != nil
        }
        #expect(taken)
        lease?.release()
    }

    @Test("one process at a time sends a sink's deliveries; the others get none until it marked them")
    func sinkClaims() async throws {
        let url = try await TestPostgres.makeDatabase()
        let (firstSees, secondSeesWhileClaimed, secondSeesAfter) = try await blocking {
            let first = PostgresSinkOutboxRepository(database: try PostgresStoreDatabase.open(try PostgresStoreURL(url)))
            let second = PostgresSinkOutboxRepository(database: try PostgresStoreDatabase.open(try PostgresStoreURL(url)))
            let queued = try first.enqueue(sink: "hook", items: sinkItems(["a", "b"]), batchSize: 1, at: Date())
            let firstSees = try first.pending(sink: "hook", now: Date()).map(\.id)
            let whileClaimed = try second.pending(sink: "hook", now: Date()).map(\.id)
            try first.markDelivered(queued[0].id, at: Date())
            try first.markFailed(queued[1].id, error: "503", permanently: false, notBefore: nil, at: Date())
            let after = try second.pending(sink: "hook", now: Date()).map(\.id)
            for id in after { try second.markDelivered(id, at: Date()) }
            return (firstSees == queued.map(\.id), whileClaimed, after == [queued[1].id])
        }
        #expect(firstSees)
        #expect(secondSeesWhileClaimed == [], "another process is sending this sink's deliveries")
        #expect(secondSeesAfter, "once marked, the failed delivery is due for whoever sends next")
    }

    @Test("a store that cannot be reached is named by host and port, never with its password")
    func unreachable() async throws {
        let port = 1  // tcpmux: nothing listens there on a test machine
        let url = "postgres://aggregate:s3cret-Pass@127.0.0.1:\(port)/shared?sslmode=disable"
        let message = try await blocking { () -> String in
            do throws(SourceError) {
                _ = try PostgresStoreDatabase.open(try PostgresStoreURL(url))
                return "opened"
            } catch {
                return error.message
            }
        }
        #expect(message.contains("127.0.0.1:\(port)"))
        #expect(message.contains("postgres://aggregate:***@"))
        #expect(!message.contains("s3cret-Pass"))
        #expect(String(describing: try PostgresStoreURL(url)).contains("s3cret") == false)
    }

    @Test("URLs: sslmode is checked, PGPASSWORD fills a missing password, the database defaults to the user")
    func urls() throws {
        let url = try PostgresStoreURL("postgresql://team@db.internal/agg?sslmode=verify-full", environment: ["PGPASSWORD": "pw"])
        #expect(url.host == "db.internal" && url.port == 5432 && url.database == "agg" && url.sslMode == .verifyFull)
        #expect(url.redacted == "postgres://team:***@db.internal:5432/agg")
        #expect(try PostgresStoreURL("postgres://u@h").database == "u")
        #expect(throws: SourceError.self) { try PostgresStoreURL("postgres://u:pw@h/d?sslmode=maybe") }
        do throws(SourceError) {
            _ = try PostgresStoreURL("postgres://u:hunter22@h/d?sslmode=maybe")
        } catch {
            #expect(!error.message.contains("hunter22"))
        }
    }

    @Test("a rate limit is stored per budget key; a later limit wins over an earlier one, never the reverse")
    func rateLimits() async throws {
        let url = try await TestPostgres.makeDatabase()
        let (none, first, kept, later) = try await blocking {
            let (_, store) = try Self.open(url)
            let none = try store.rateLimit("budget https://api.example cred=ab")
            try store.recordRateLimit("budget https://api.example cred=ab", until: Date(timeIntervalSince1970: 2_000))
            let first = try store.rateLimit("budget https://api.example cred=ab")
            try store.recordRateLimit("budget https://api.example cred=ab", until: Date(timeIntervalSince1970: 1_000))
            let kept = try store.rateLimit("budget https://api.example cred=ab")
            try store.recordRateLimit("budget https://api.example cred=ab", until: Date(timeIntervalSince1970: 3_000))
            return (none, first, kept, try store.rateLimit("budget https://api.example cred=ab"))
        }
        #expect(none == nil)
        #expect(first == Date(timeIntervalSince1970: 2_000))
        #expect(kept == Date(timeIntervalSince1970: 2_000))
        #expect(later == Date(timeIntervalSince1970: 3_000))
    }
}
