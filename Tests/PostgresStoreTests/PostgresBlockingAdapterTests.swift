import Dispatch
import Foundation
@testable import PostgresStore
import ProviderTesting
import Synchronization
import Testing

/// The shared store's blocking facade (`PostgresBlockingAdapter`): a store call blocks its caller's thread, and
/// must finish even when the callers are every thread of Swift's cooperative pool.
@Suite("PostgreSQL store: blocking calls from Swift's cooperative pool",
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct PostgresBlockingAdapterTests {
    @Test("every cooperative thread blocked in a store call at once: the calls still finish, their work runs on event loops")
    func everyCooperativeThreadBlocked() async throws {
        let url = try await TestPostgres.makeDatabase()
        let database = try await blocking { try PostgresStoreDatabase.open(try PostgresStoreURL(url)) }
        let width = ProcessInfo.processInfo.activeProcessorCount
        let calls = 2 * width
        let tally = Tally()
        // A deadlock would leave no thread to run this test's task, so it could not fail: a thread of its own
        // ends the test process instead of letting the run hang without a word.
        let finished = DispatchSemaphore(value: 0)
        Thread {
            guard finished.wait(timeout: .now() + 120) == .timedOut else { return }
            FileHandle.standardError.write(Data("PostgresBlockingAdapterTests: store calls deadlocked on the cooperative pool\n".utf8))
            exit(1)
        }.start()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<calls {
                // Child tasks run on the cooperative pool; each blocks its thread in a store call that holds
                // it long enough for every pool thread to be inside one.
                group.addTask {
                    tally.enter()
                    let rows = try? database.withSession { session in try await session.rows("SELECT pg_sleep(0.3)").count }
                    tally.leave(answered: rows == 1)
                }
            }
        }
        finished.signal()
        database.close()
        let (answered, most) = tally.counts
        #expect(answered == calls, "every call answered")
        #expect(most >= width, "every cooperative thread (\(width)) was blocked in a store call at once: \(most)")
    }

    /// How many calls are inside the store at once (and the most ever), and how many were answered.
    final class Tally: Sendable {
        private let state = Mutex((inside: 0, most: 0, answered: 0))

        func enter() {
            state.withLock { $0.inside += 1; $0.most = max($0.most, $0.inside) }
        }

        func leave(answered: Bool) {
            state.withLock { $0.inside -= 1; $0.answered += answered ? 1 : 0 }
        }

        var counts: (answered: Int, most: Int) { state.withLock { ($0.answered, $0.most) } }
    }
}
