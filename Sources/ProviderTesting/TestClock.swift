import Dispatch
import Domain
import Foundation
import Synchronization

/// A `TimerClock` a test moves: time stands still until `advance(by:)`, which runs the wake-ups that fell due,
/// each at its own time and in order. `waitForWakeUps(_:)` suspends until the code under test is waiting on the
/// clock, so a test never races the timer it is about to step past.
public final class TestClock: TimerClock {
    private struct WakeUp {
        var at: UInt64
        var order: Int
        var work: @Sendable () -> Void
    }

    private struct State {
        /// Nanoseconds since the clock was made.
        var elapsed: UInt64 = 0
        var wakeUps: [WakeUp] = []
        var nextOrder = 0
        var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// Where `uptime` starts: away from 0, which `DispatchTime` reads as "now".
    private static let base: UInt64 = 1_000_000_000

    private let start: Date
    private let state = Mutex(State())

    /// A clock whose `now` starts at `now`.
    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) { start = now }

    public var now: Date { start.addingTimeInterval(Double(state.withLock { $0.elapsed }) / 1e9) }

    public var uptime: DispatchTime { DispatchTime(uptimeNanoseconds: Self.base + state.withLock { $0.elapsed }) }

    public func wake(after seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        schedule(work) { $0 + Self.nanoseconds(seconds) }
    }

    public func wake(at deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) {
        let target = deadline.uptimeNanoseconds
        schedule(work) { elapsed in target > Self.base ? max(elapsed, target - Self.base) : elapsed }
    }

    /// Wake-ups set and not yet run.
    public var pendingWakeUps: Int { state.withLock { $0.wakeUps.count } }

    /// Seconds from now to the earliest pending wake-up, if any.
    public var nextWakeUp: TimeInterval? {
        state.withLock { state in state.wakeUps.map(\.at).min().map { Double($0 - state.elapsed) / 1e9 } }
    }

    /// Suspends until at least `count` wake-ups are pending (set and not yet run).
    public func waitForWakeUps(_ count: Int = 1) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.wakeUps.count >= count { return true }
                state.waiting.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Moves time on by `seconds`, running every wake-up that falls due on the way (those set meanwhile too),
    /// each with the clock at its time, in order, outside the clock's lock, on the caller's thread.
    public func advance(by seconds: TimeInterval) {
        let target = state.withLock { $0.elapsed + Self.nanoseconds(seconds) }
        while let work = state.withLock({ state -> (@Sendable () -> Void)? in
            guard let next = state.wakeUps.indices
                .filter({ state.wakeUps[$0].at <= target })
                .min(by: { (state.wakeUps[$0].at, state.wakeUps[$0].order) < (state.wakeUps[$1].at, state.wakeUps[$1].order) })
            else {
                state.elapsed = max(state.elapsed, target)
                return nil
            }
            let wakeUp = state.wakeUps.remove(at: next)
            state.elapsed = max(state.elapsed, wakeUp.at)
            return wakeUp.work
        }) {
            work()
        }
    }

    /// Moves time on to the earliest pending wake-up and runs it (and any due at the same time); false if none
    /// is pending.
    @discardableResult
    public func advanceToNextWakeUp() -> Bool {
        guard let next = nextWakeUp else { return false }
        advance(by: next)
        return true
    }

    /// Adds a wake-up at `at(elapsed)` and resumes the tests waiting for that many.
    private func schedule(_ work: @escaping @Sendable () -> Void, at: (UInt64) -> UInt64) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.wakeUps.append(WakeUp(at: at(state.elapsed), order: state.nextOrder, work: work))
            state.nextOrder += 1
            let count = state.wakeUps.count
            let ready = state.waiting.filter { $0.count <= count }.map(\.continuation)
            state.waiting.removeAll { $0.count <= count }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 { UInt64(max(0, seconds) * 1e9) }
}
