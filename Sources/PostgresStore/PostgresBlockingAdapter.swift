import Dispatch
import NIOCore
import NIOPosix
import Synchronization

/// The shared store's one blocking facade: a synchronous caller (the store protocols are synchronous) waits here
/// while the PostgreSQL work runs as an async task on a SwiftNIO event loop.
///
/// The task prefers an event-loop task executor (SE-0417), and so do the tasks it starts (children inherit the
/// preference): the work and `PostgresClient`'s pool run on the event loop threads, which do the I/O anyway. Only
/// their timers (the pool's backoff, `Task.sleep`; a call's wait for a connection, on the store's clock) wake through
/// Dispatch's threads on Linux; when every one of those is blocked here, libdispatch adds a thread within
/// a second. So callers on those threads delay the store's timers but cannot stop them, and every query's wait
/// ends by itself (`PostgresSession`). The one thread that must never wait here is an event loop's own (the work
/// may need that loop): `run` traps there.
final class PostgresBlockingAdapter: Sendable {
    private let group: any EventLoopGroup

    init(group: any EventLoopGroup) {
        self.group = group
    }

    /// Runs `work` on an event loop and blocks the calling thread until it is done.
    /// - Returns: what `work` returned; throws what it threw.
    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        precondition(
            MultiThreadedEventLoopGroup.currentEventLoop == nil,
            "a blocking store call on an event loop thread would wait for work that needs that loop")
        let outcome = Outcome<T>()
        Task(executorPreference: EventLoopTaskExecutor(group.next())) {
            do {
                outcome.settle(.success(try await work()))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        return try outcome.wait().get()
    }

    /// Starts `work` on an event loop without waiting for it (a long-running service such as
    /// `PostgresClient.run()`); cancelling the task it returns stops it.
    func start(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: EventLoopTaskExecutor(group.next())) { await work() }
    }
}

/// Runs a task's jobs on one event loop. Unlike an actor's executor it is not serial: a task hops here, so the
/// tasks (and child tasks) preferring it run on the loop's thread rather than Swift's cooperative pool.
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// The result of one adapted call, handed from the event loop to the waiting thread.
private final class Outcome<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)
    private let settled = DispatchSemaphore(value: 0)

    func settle(_ value: Result<T, any Error>) {
        result.withLock { $0 = value }
        settled.signal()
    }

    func wait() -> Result<T, any Error> {
        settled.wait()
        return result.withLock { $0! }
    }
}
