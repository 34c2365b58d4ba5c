/// Jobs waiting their turn, first in, first out. A taken job's slot is emptied at once, so what it captured goes once
/// it started; the storage is freed when the last one was taken.
struct WaitingJobs {
    private var jobs: [(@Sendable () -> Void)?] = []
    private var next = 0

    mutating func append(_ job: @escaping @Sendable () -> Void) {
        jobs.append(job)
    }

    /// How many wait.
    var count: Int { jobs.count - next }

    /// The job waiting longest, nil when none waits.
    mutating func take() -> (@Sendable () -> Void)? {
        guard next < jobs.count else {
            jobs.removeAll(keepingCapacity: false)
            next = 0
            return nil
        }
        defer { next += 1 }
        let job = jobs[next]
        jobs[next] = nil
        return job
    }
}
