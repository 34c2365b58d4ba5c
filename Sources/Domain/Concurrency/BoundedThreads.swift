import Foundation
import Synchronization

/// Blocking jobs (a store's reads and writes) on at most `limit` threads of their own, started in the order given:
/// never on a shared pool thread, which a job waiting on a database would hold. A thread starts when a job comes
/// and fewer than `limit` run, takes the waiting jobs one after another, and ends when none is left.
public final class BoundedThreads: Sendable {
    private struct State {
        var running = 0
        var waiting = WaitingJobs()
    }

    private let limit: Int
    private let name: String
    private let state = Mutex(State())

    /// - Parameters:
    ///   - limit: the most jobs running at once.
    ///   - name: the threads' name (what a debugger shows).
    public init(limit: Int, name: String) {
        self.limit = max(1, limit)
        self.name = name
    }

    /// Runs `job` on one of the threads, after the jobs given before it started.
    public func run(_ job: @escaping @Sendable () -> Void) {
        let startsThread = state.withLock { state -> Bool in
            state.waiting.append(job)
            guard state.running < limit else { return false }
            state.running += 1
            return true
        }
        guard startsThread else { return }
        let thread = Thread { [self] in
            while let job = nextJob() { job() }
        }
        thread.name = name
        thread.start()
    }

    /// The next waiting job, or nil (and this thread ends) when there is none.
    private func nextJob() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard let job = state.waiting.take() else {
                state.running -= 1
                return nil
            }
            return job
        }
    }
}
