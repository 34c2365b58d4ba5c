import Dispatch
import Foundation
import Synchronization

/// `SystemClock`'s wake-ups: one thread of the process sleeps until the earliest one is due and hands each to a
/// global queue when it is.
///
/// `DispatchQueue.asyncAfter` makes a timer source for every call, and making one wakes libdispatch's manager
/// thread to file it: two context switches for each, and a run of 10,000 HTTP sources makes 20,000 (a request's
/// timeout and a source's deadline), nearly all of which never fire. Here a new wake-up wakes the thread only when
/// it is due before everything already waiting; timeouts measured from now mostly are not.
///
/// The waiting wake-ups are a binary min-heap of their own (`EntryHeap`): Domain takes no package but JSON.
final class WakeUps: Sendable {
    static let shared = WakeUps()

    struct Entry {
        let deadline: UInt64
        /// Which was added first, among wake-ups due at the same instant.
        let order: UInt64
        let work: @Sendable () -> Void

        func isBefore(_ other: Entry) -> Bool { (deadline, order) < (other.deadline, other.order) }
    }

    private struct State {
        var waiting = EntryHeap()
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
                while let first = state.waiting.first, first.deadline <= now { due.append(state.waiting.removeFirst().work) }
                let next = state.waiting.first?.deadline ?? .max
                state.sleepingUntil = next
                return (due, next)
            }
            for work in due { DispatchQueue.global().async(execute: work) }
            _ = bell.wait(timeout: next == .max ? .distantFuture : DispatchTime(uptimeNanoseconds: next))
        }
    }
}

/// The waiting wake-ups, the earliest first: a binary min-heap in an array (each entry is no later than its two
/// children at `2i + 1` and `2i + 2`).
struct EntryHeap {
    private var entries: [WakeUps.Entry] = []

    var first: WakeUps.Entry? { entries.first }

    mutating func insert(_ entry: WakeUps.Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].isBefore(entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest; the heap must not be empty.
    mutating func removeFirst() -> WakeUps.Entry {
        entries.swapAt(0, entries.count - 1)
        let earliest = entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var earliestChild = parent
            if left < entries.count, entries[left].isBefore(entries[earliestChild]) { earliestChild = left }
            if right < entries.count, entries[right].isBefore(entries[earliestChild]) { earliestChild = right }
            guard earliestChild != parent else { return earliest }
            entries.swapAt(parent, earliestChild)
            parent = earliestChild
        }
    }
}
