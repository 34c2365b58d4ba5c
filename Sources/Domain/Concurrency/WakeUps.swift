import Dispatch
import Foundation
import HeapModule
import Synchronization

/// `SystemClock`'s wake-ups: one thread of the process sleeps until the earliest one is due and hands each to a
/// global queue when it is.
///
/// `DispatchQueue.asyncAfter` makes a timer source for every call, and making one wakes libdispatch's manager
/// thread to file it: two context switches for each, and a run of 10,000 HTTP sources makes 20,000 (a request's
/// timeout and a source's deadline), nearly all of which never fire. Here a new wake-up wakes the thread only when
/// it is due before everything already waiting; timeouts measured from now mostly are not.
final class WakeUps: Sendable {
    static let shared = WakeUps()

    private struct Entry: Comparable {
        let deadline: UInt64
        let order: UInt64
        let work: @Sendable () -> Void

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool { (lhs.deadline, lhs.order) == (rhs.deadline, rhs.order) }
    }

    private struct State {
        var waiting = Heap<Entry>()
        var added: UInt64 = 0
        /// When the thread wakes by itself (`UInt64.max`: only when rung); nil before it runs.
        var sleepingUntil: UInt64?
    }

    private let state = Mutex(State())
    /// Rung when a wake-up is due before the thread would wake.
    private let bell = DispatchSemaphore(value: 0)

    /// Runs `work` on a global queue once `DispatchTime.now()` has reached `deadline` (uptime nanoseconds).
    func add(at deadline: UInt64, _ work: @escaping @Sendable () -> Void) {
        let (ring, start) = state.withLock { state -> (Bool, Bool) in
            state.added += 1
            state.waiting.insert(Entry(deadline: deadline, order: state.added, work: work))
            guard let sleepingUntil = state.sleepingUntil else {
                state.sleepingUntil = .max  // started once, below
                return (false, true)
            }
            guard deadline < sleepingUntil else { return (false, false) }
            state.sleepingUntil = deadline
            return (true, false)
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "aggregate.wake-ups"
            thread.start()
        }
        if ring { bell.signal() }
    }

    private func run() {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (due, next) = state.withLock { state -> ([@Sendable () -> Void], UInt64) in
                var due: [@Sendable () -> Void] = []
                while let first = state.waiting.min, first.deadline <= now { due.append(state.waiting.removeMin().work) }
                let next = state.waiting.min?.deadline ?? .max
                state.sleepingUntil = next
                return (due, next)
            }
            for work in due { DispatchQueue.global().async(execute: work) }
            _ = bell.wait(timeout: next == .max ? .distantFuture : DispatchTime(uptimeNanoseconds: next))
        }
    }
}
