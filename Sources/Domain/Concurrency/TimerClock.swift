import Dispatch
import Foundation
import Synchronization

/// The one clock every timer takes: what time it is, a monotonic reading for deadlines and durations, and a
/// wake-up after a delay. Injected (the engine's timeouts, a sink's backoff, a watch's schedule, serve's
/// keep-alive, the fleet's renewals) so that a test steps time instead of waiting for it (ProviderTesting's
/// `TestClock`); `SystemClock` everywhere else.
public protocol TimerClock: Sendable {
    /// What time it is: the time schedules and reports are stated in.
    var now: Date { get }
    /// A reading that only moves forward, for deadlines (`CancellationToken`) and durations.
    var uptime: DispatchTime { get }
    /// Runs `work` once, on some thread, when `seconds` have passed (never synchronously in the caller).
    func wake(after seconds: TimeInterval, _ work: @escaping @Sendable () -> Void)
    /// Runs `work` once, on some thread, when `uptime` reached `deadline`.
    func wake(at deadline: DispatchTime, _ work: @escaping @Sendable () -> Void)
    /// Blocks the calling thread (a thread of its own, never a pool thread) until `semaphore` is signalled or
    /// `seconds` passed on this clock, whichever comes first.
    func wait(for semaphore: DispatchSemaphore, atMost seconds: TimeInterval)
}

extension TimerClock {
    /// A clock that only states `now` (a watch's clock before there was one clock) reads its uptime from it.
    public var uptime: DispatchTime {
        DispatchTime(uptimeNanoseconds: UInt64(max(1, now.timeIntervalSince1970 * 1e9)))
    }

    public func wake(at deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) {
        let now = uptime.uptimeNanoseconds
        let target = deadline.uptimeNanoseconds
        wake(after: target > now ? Double(target - now) / 1e9 : 0, work)
    }

    public func wait(for semaphore: DispatchSemaphore, atMost seconds: TimeInterval) {
        // The wake-up signals only if the wait has not ended otherwise, so it leaves no signal for a later wait.
        let ended = Mutex(false)
        wake(after: seconds) {
            if !ended.withLock({ ended in defer { ended = true }; return ended }) { semaphore.signal() }
        }
        semaphore.wait()
        ended.withLock { $0 = true }
    }

    /// Seconds from `uptime` to `deadline`, never negative.
    public func seconds(until deadline: DispatchTime) -> TimeInterval {
        let now = uptime.uptimeNanoseconds
        let target = deadline.uptimeNanoseconds
        return target > now ? Double(target - now) / 1e9 : 0
    }

    /// Seconds since `start`, a reading of `uptime`.
    public func seconds(since start: DispatchTime) -> TimeInterval {
        let now = uptime.uptimeNanoseconds
        return now > start.uptimeNanoseconds ? Double(now - start.uptimeNanoseconds) / 1e9 : 0
    }
}

/// The system's clock: `Date()`, `DispatchTime.now()`, and wake-ups run on a global queue, timed by one thread of
/// the process (`WakeUps`).
public struct SystemClock: TimerClock {
    public init() {}

    public var now: Date { Date() }

    public var uptime: DispatchTime { DispatchTime.now() }

    public func wake(after seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        wake(at: .now() + max(0, seconds), work)
    }

    public func wake(at deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) {
        WakeUps.shared.add(at: deadline.uptimeNanoseconds, work)
    }

    public func wait(for semaphore: DispatchSemaphore, atMost seconds: TimeInterval) {
        _ = semaphore.wait(timeout: .now() + seconds)
    }
}
