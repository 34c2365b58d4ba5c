import Domain
import Foundation
@testable import PostgresStore
import ProviderTesting
import Testing

/// A store whose server goes away under an open database: calls fail at once with the reason, and work again when
/// it is back. On a cluster of the test's own (`TestPostgresCluster`), so the shared test server is not disturbed.
@Suite("PostgreSQL store: a server that goes away and comes back",
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct PostgresOutageTests {
    @Test("a call while the server is away fails naming it, without waiting out the pool's wait (an hour here); then calls work again")
    func serverAway() async throws {
        let cluster = try await TestPostgresCluster.start()
        do {
            let url = try PostgresStoreURL(cluster.url)
            let database = try await blocking { try PostgresStoreDatabase.open(url, connectionWaitSeconds: 3_600) }
            let before = try await blocking { try database.describe().migrations }
            try await cluster.pause()
            let away = try await blocking { () -> SourceError? in
                do throws(SourceError) {
                    _ = try database.describe()
                    return nil
                } catch {
                    return error
                }
            }
            try await cluster.resume()
            let after = try await blocking { try database.describe().migrations }
            database.close()

            #expect(away?.kind == .network, "\(String(describing: away))")
            #expect(away?.message.contains("cannot connect to the store") == true, "\(String(describing: away))")
            #expect(!before.isEmpty && after == before)
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    @Test("a call's wait before it asks whether the server is there is timed on the store's clock", .timeLimit(.minutes(2)))
    func probeOnTheClock() async throws {
        let cluster = try await TestPostgresCluster.start()
        do {
            let url = try PostgresStoreURL(cluster.url)
            let clock = TestClock()
            let database = try await blocking {
                try PostgresStoreDatabase.open(url, connectionWaitSeconds: 3_600, clock: clock)
            }
            // Calls that were answered left their waits set (cancelled, they do nothing when they run).
            let before = clock.pendingWakeUps
            try await cluster.pause()
            async let away = blocking { () -> SourceError? in
                do throws(SourceError) {
                    _ = try database.describe()
                    return nil
                } catch {
                    return error
                }
            }
            // The call's two waits: the probe's second and the pool's hour. Time stands still until the test moves
            // it, so the call is still waiting here, however slow the machine.
            await clock.waitForWakeUps(before + 2)
            clock.advance(by: 1)
            let error = try await away
            try await cluster.resume()
            database.close()

            #expect(error?.kind == .network, "\(String(describing: error))")
            #expect(error?.message.contains("cannot connect to the store") == true, "\(String(describing: error))")
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }
}
