import Dispatch

/// Where every `FixtureServer` runs: a serial dispatch queue of its own, outside Swift's cooperative pool.
///
/// On Linux the cooperative pool and `DispatchQueue.global()` are the same threads, one per core (two on
/// CI), shared by every test body and by the use case's fan-out and timers under test. A server on that
/// pool waits whenever tests keep it busy, and its clients time out in tests that are not about time.
/// A server's own work is small (parse a request, write a recorded response), so one queue serves them all.
final class ServerExecutor: TaskExecutor {
    static let shared = ServerExecutor()

    private let queue = DispatchQueue(label: "aggregate.fixture-server")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
