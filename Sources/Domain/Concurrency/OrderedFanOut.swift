import Dispatch
import Foundation
import Synchronization

/// Runs `count` callback-style jobs with at most `limit` in flight and hands back their results in index order.
///
/// This is the one fan-out every use case shares (cities, repositories, pages, feeds, files). It never
/// blocks a thread: a finished job starts the next one, and a `DispatchGroup` notifies when all are done.
/// Once the token is cancelled no new job starts; the ones not started report `notStarted`.
public enum OrderedFanOut {
    /// - Parameters:
    ///   - count: how many jobs, indexed from 0.
    ///   - limit: the most jobs in flight at once (at least 1).
    ///   - cancellation: once cancelled, no new job starts.
    ///   - notStarted: the result of each job that never started.
    ///   - job: starts job `index` and calls `done` exactly once, from any thread.
    ///   - completion: receives one result per job, in index order, on a global queue.
    public static func run<Value: Sendable>(
        count: Int,
        limit: Int,
        cancellation: CancellationToken,
        notStarted: @escaping @Sendable () -> Value,
        job: @escaping @Sendable (_ index: Int, _ done: @escaping @Sendable (Value) -> Void) -> Void,
        completion: @escaping @Sendable ([Value]) -> Void
    ) {
        guard count > 0 else {
            DispatchQueue.global().async { completion([]) }
            return
        }
        let run = Run<Value>(count: count)
        let group = DispatchGroup()
        for _ in 0..<count { group.enter() }

        @Sendable func startNext() {
            guard let index = run.claimNext() else { return }
            if cancellation.isCancelled {
                _ = run.store(notStarted(), at: index)
                group.leave()
                DispatchQueue.global().async { startNext() }
                return
            }
            job(index) { value in
                guard run.store(value, at: index) else { return }  // a second `done` is ignored
                group.leave()
                // Async, so jobs that finish synchronously do not recurse one frame per job; and only when a job
                // is left to claim (a source of one URL, most feeds, would wake a pool thread for nothing).
                if run.hasUnclaimed { DispatchQueue.global().async { startNext() } }
            }
        }

        group.notify(queue: .global()) {
            completion(run.results())
        }
        // The caller is a pool thread already: it starts the first job itself, the pool the others.
        for _ in 1..<max(1, min(limit, count)) {
            DispatchQueue.global().async { startNext() }
        }
        startNext()
    }

    private final class Run<Value: Sendable>: Sendable {
        private struct State {
            var next = 0
            var results: [Value?]
        }

        private let count: Int
        private let state: Mutex<State>

        init(count: Int) {
            self.count = count
            self.state = Mutex(State(results: Array(repeating: nil, count: count)))
        }

        var hasUnclaimed: Bool { state.withLock { $0.next < count } }

        func claimNext() -> Int? {
            state.withLock { state in
                guard state.next < count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        /// Returns false when the slot was already filled.
        func store(_ value: Value, at index: Int) -> Bool {
            state.withLock { state in
                guard state.results[index] == nil else { return false }
                state.results[index] = value
                return true
            }
        }

        /// The results, handed over once: the run itself may outlive the fan-out (its jobs' closures hold it,
        /// and a transport may keep those until a timer fires), and the values (a source's items) must not.
        func results() -> [Value] {
            state.withLock { state in
                defer { state.results = [] }
                return state.results.map { $0! }
            }
        }
    }
}
