import Dispatch
import Synchronization
import Testing
@testable import Domain

/// Real time, so each test waits for wake-ups by continuation (never blocking a pool thread, which the global
/// queue the wake-ups run on shares).
@Suite("The system clock's wake-ups", .timeLimit(.minutes(1)))
struct SystemClockTests {
    @Test("a wake-up due before one already waiting is not held back by it")
    func earlierAfterLater() async {
        let clock = SystemClock()
        let far = Mutex(false)
        clock.wake(after: 3600) { far.withLock { $0 = true } }
        // The thread sleeps until the hour is up unless the near wake-up rings it: then this waits an hour.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            clock.wake(after: 0.01) { continuation.resume() }
        }
        #expect(!far.withLock { $0 })
    }

    @Test("every wake-up runs once, never before its time, however many threads add them")
    func manyFromManyThreads() async {
        let clock = SystemClock()
        let count = 2_000
        let early = Atomic(0), ran = Atomic(0)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: count) { index in
                    let deadline = DispatchTime.now() + .milliseconds(index % 50)
                    clock.wake(at: deadline) {
                        if DispatchTime.now() < deadline { early.add(1, ordering: .relaxed) }
                        if ran.add(1, ordering: .relaxed).newValue == count { continuation.resume() }
                    }
                }
            }
        }
        #expect(ran.load(ordering: .relaxed) == count)
        #expect(early.load(ordering: .relaxed) == 0)
    }

    @Test("a wake-up whose time has passed still runs")
    func pastDeadline() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            SystemClock().wake(after: -5) { continuation.resume() }
        }
    }

    @Test("the waiting wake-ups come out earliest first, and in the order added when due together")
    func heapOrder() {
        var heap = EntryHeap()
        var generator = SystemRandomNumberGenerator()
        var added: [(deadline: UInt64, order: UInt64)] = []
        for order in UInt64(1)...1_000 {
            let deadline = UInt64.random(in: 0..<200, using: &generator)  // many share a deadline
            heap.insert(WakeUps.Entry(deadline: deadline, order: order, work: {}))
            added.append((deadline, order))
            if order % 7 == 0 {  // taken out while others are still added
                let first = heap.removeFirst()
                let expected = added.min { ($0.deadline, $0.order) < ($1.deadline, $1.order) }!
                #expect((first.deadline, first.order) == (expected.deadline, expected.order))
                added.removeAll { $0.order == first.order }
            }
        }
        var taken: [(UInt64, UInt64)] = []
        while let first = heap.first {
            #expect(first.order == heap.removeFirst().order)
            taken.append((first.deadline, first.order))
        }
        #expect(taken.map(\.1) == added.sorted { ($0.deadline, $0.order) < ($1.deadline, $1.order) }.map(\.order))
    }
}
