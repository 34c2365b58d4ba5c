import Foundation

/// Runs blocking work (SQLite waiting on a lock, a process, a pipe) on a thread of its own and resumes with
/// its result: blocking Dispatch's global queues, which also run Swift concurrency on Linux, starves the
/// in-process loopback servers of other suites.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// `onOwnThread` for work that throws. Expectations belong after it, on the test's task: an `#expect` on
/// another thread is not attributed to the test.
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
