import Synchronization

/// At most `limit` jobs at once, the others started in order as earlier ones end: a run of 10,000 sources keeps a
/// few hundred loading rather than all of them, each holding its timers, buffers and request in memory while it
/// waits for the transport. One admission may serve many runs at once (a watch's overlapping cycles), so the limit
/// holds for all of them together.
public final class Admission: Sendable {
    private struct State {
        var running = 0
        var waiting = WaitingJobs()
    }

    private let limit: Int
    private let state = Mutex(State())

    /// - Parameter limit: the most jobs running at once (at least 1).
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Starts `job` now if fewer than `limit` run, else once one of them ended. `job` must call `end()` once.
    public func start(_ job: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.running < limit else {
                state.waiting.append(job)
                return false
            }
            state.running += 1
            return true
        }
        if now { job() }
    }

    /// How many jobs wait for a place now.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// A job ended: the next waiting one starts (on this thread, outside the lock).
    public func end() {
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            guard let job = state.waiting.take() else {
                state.running -= 1
                return nil
            }
            return job
        }
        next?()
    }
}
