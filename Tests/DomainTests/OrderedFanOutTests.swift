import Dispatch
import Domain
import Foundation
import Synchronization
import Testing

@Suite("Ordered fan-out")
struct OrderedFanOutTests {
    private func run(count: Int, limit: Int, cancellation: CancellationToken = CancellationToken(),
                     probe: ConcurrencyProbe = ConcurrencyProbe(),
                     delay: @escaping @Sendable (Int) -> Double) async -> [String] {
        await withCheckedContinuation { continuation in
            OrderedFanOut.run(
                count: count, limit: limit, cancellation: cancellation, notStarted: { "not started" },
                job: { index, finish in
                    probe.enter()
                    DispatchQueue.global().asyncAfter(deadline: .now() + delay(index)) {
                        probe.leave()
                        finish("job \(index)")
                    }
                },
                completion: { continuation.resume(returning: $0) })
        }
    }

    @Test("results come back in index order whatever order the jobs finish in")
    func keepsOrder() async {
        // Later jobs finish first.
        let results = await run(count: 6, limit: 6) { index in Double(6 - index) * 0.01 }
        #expect(results == (0..<6).map { "job \($0)" })
    }

    @Test("never more jobs in flight than the limit", arguments: [1, 2, 3])
    func boundsConcurrency(limit: Int) async {
        let probe = ConcurrencyProbe()
        _ = await run(count: 9, limit: limit, probe: probe) { _ in 0.01 }
        #expect(probe.peak <= limit)
        #expect(probe.peak >= 1)
    }

    @Test("jobs run in parallel up to the limit")
    func reachesTheLimit() async {
        let probe = ConcurrencyProbe()
        _ = await run(count: 8, limit: 4, probe: probe) { _ in 0.2 }
        #expect(probe.peak == 4)
    }

    @Test("no new job starts once cancelled; the rest report not started")
    func stopsOnCancel() async {
        let token = CancellationToken()
        token.cancel()
        let results = await run(count: 3, limit: 1, cancellation: token) { _ in 0 }
        #expect(results == ["not started", "not started", "not started"])
    }

    @Test("zero jobs complete at once with no results")
    func empty() async {
        let results = await run(count: 0, limit: 3) { _ in 0 }
        #expect(results.isEmpty)
    }
}

@Suite("Cancellation token")
struct CancellationTokenTests {
    @Test("handlers run once on cancel, and at once when registered afterwards")
    func handlers() {
        let token = CancellationToken()
        let calls = Mutex(0)
        token.onCancel { calls.withLock { $0 += 1 } }
        token.cancel()
        token.cancel()
        #expect(calls.withLock { $0 } == 1)
        token.onCancel { calls.withLock { $0 += 10 } }
        #expect(calls.withLock { $0 } == 11)
        #expect(token.isCancelled)
    }
}
