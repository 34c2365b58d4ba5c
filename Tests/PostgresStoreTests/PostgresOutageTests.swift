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
}
