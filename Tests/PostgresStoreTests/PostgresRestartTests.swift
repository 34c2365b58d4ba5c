import Dispatch
import Domain
import Foundation
@testable import PostgresStore
import ProviderTesting
import Synchronization
import Testing

/// Store calls while the server restarts under them: each call ends (answered, or failed naming the server), none
/// waits for an answer that cannot come, and calls are answered again once the server is back. On a cluster of the
/// test's own (`TestPostgresCluster`), so the shared test server is not disturbed.
@Suite("PostgreSQL store: calls through restarts",
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct PostgresRestartTests {
    @Test("a query on a connection that has closed fails at once as a lost connection, not after its timeout",
          .timeLimit(.minutes(2)))
    func queryOnClosedConnection() async throws {
        let url = try PostgresStoreURL(try await TestPostgres.makeDatabase())
        let database = try await blocking { try PostgresStoreDatabase.open(url) }
        let connection = try await blocking { try database.connect() }
        // Closed and its handlers gone, as a pooled connection can be when the pool lends it in the instant it closes.
        try await connection.close()
        // A timeout no test run reaches: a wait for the answer would fail as `Timeout`, after an hour, not `Closed`.
        let session = PostgresSession(connection: connection, logger: database.logger, timeout: .seconds(3600))
        let error = await #expect(throws: (any Error).self) { try await session.rows("SELECT 1") }
        database.close()

        #expect(error is PostgresSession.Closed, "failed at once, nothing sent: \(String(describing: error))")
        #expect(error.map(PostgresStoreDatabase.isConnectionLoss) == true, "a lost connection, tried again on another")
    }

    @Test("twelve threads calling through restarts and an outage: every call ends, and calls are answered after each")
    func callsThroughRestarts() async throws {
        let cluster = try await TestPostgresCluster.start()
        do {
            try await Self.callsThroughRestarts(cluster)
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    private static func callsThroughRestarts(_ cluster: TestPostgresCluster) async throws {
        let url = try PostgresStoreURL(cluster.url)
        let database = try await blocking { try PostgresStoreDatabase.open(url) }
        let calls = Calls()
        // More callers than the pool has connections (8), on Dispatch's threads as the run engine's are: some wait
        // for a connection while the server goes away.
        for caller in 0..<12 {
            DispatchQueue.global().async {
                while !calls.stopping {
                    let started = Date()
                    do throws(SourceError) {
                        // Each query holds its connection 10 ms (`pg_sleep`: the delay is the subject), so restarts
                        // meet calls in flight.
                        if caller.isMultiple(of: 2) {
                            try database.withSession { session in _ = try await session.rows("SELECT pg_sleep(0.01)") }
                        } else {
                            try database.transaction { session in
                                _ = try await session.rows("SELECT 1")
                                _ = try await session.rows("SELECT pg_sleep(0.01)")
                            }
                        }
                        calls.ended(answered: true, after: Date().timeIntervalSince(started), error: nil)
                    } catch {
                        calls.ended(answered: false, after: Date().timeIntervalSince(started), error: error)
                    }
                }
                calls.callerDone()
            }
        }
        var answeredAfterEach = true
        for round in 0..<6 {
            let answered = calls.answered
            if round == 2 {
                try await cluster.pause()
                // A call while the server is away fails naming it.
                let refused = await calls.wait(within: 60) { $0.failures.contains { $0.contains("cannot connect to the store") } }
                #expect(refused, "\(calls.failures.suffix(5))")
                try await cluster.resume()
            } else {
                try await cluster.restart()
            }
            answeredAfterEach = await calls.wait(within: 60) { $0.answered >= answered + 100 } && answeredAfterEach
        }
        calls.stop()
        let finished = await calls.wait(within: 120) { $0.callersDone == 12 }
        database.close()

        #expect(finished, "every caller's last call ended")
        #expect(answeredAfterEach, "calls were answered again after each restart")
        #expect(calls.longest < Double(database.connectionWaitSeconds), "no call waited out the store's wait: \(calls.longest) s")
        #expect(calls.failures.allSatisfy { $0.contains(url.redacted) }, "every failure names the store: \(calls.failures.prefix(5))")
    }

    /// The callers' tally: answered calls, failures' messages, the longest call, callers that stopped; a test waits on
    /// it changing (`wait(within:until:)`).
    final class Calls: Sendable {
        struct Tally {
            var stopping = false
            var answered = 0
            var failures: [String] = []
            var longest = 0.0
            var callersDone = 0
        }

        private let state = Mutex((tally: Tally(), waiters: [Int: Waiter](), next: 0))
        private typealias Waiter = (condition: @Sendable (Tally) -> Bool, continuation: CheckedContinuation<Bool, Never>)

        func ended(answered: Bool, after seconds: Double, error: SourceError?) {
            change { tally in
                tally.answered += answered ? 1 : 0
                if let error { tally.failures.append(error.message) }
                tally.longest = max(tally.longest, seconds)
            }
        }

        func stop() { change { $0.stopping = true } }
        func callerDone() { change { $0.callersDone += 1 } }

        /// Suspends until `condition` holds of the tally (asked as it changes); false if it did not within `seconds`.
        func wait(within seconds: Double, until condition: @escaping @Sendable (Tally) -> Bool) async -> Bool {
            await withCheckedContinuation { continuation in
                let id = state.withLock { state -> Int? in
                    if condition(state.tally) { return nil }
                    defer { state.next += 1 }
                    state.waiters[state.next] = (condition, continuation)
                    return state.next
                }
                guard let id else { return continuation.resume(returning: true) }
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                    state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
                }
            }
        }

        private func change(_ update: (inout Tally) -> Void) {
            let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
                update(&state.tally)
                let ids = state.waiters.filter { $0.value.condition(state.tally) }.map(\.key)
                return ids.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
            }
            ready.forEach { $0.resume(returning: true) }
        }
        var stopping: Bool { state.withLock { $0.tally.stopping } }
        var answered: Int { state.withLock { $0.tally.answered } }
        var failures: [String] { state.withLock { $0.tally.failures } }
        var longest: Double { state.withLock { $0.tally.longest } }
    }
}
