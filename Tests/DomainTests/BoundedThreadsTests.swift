import Dispatch
import Domain
import Foundation
import Synchronization
import Testing

@Suite("Blocking jobs on a bounded set of threads of their own (BoundedThreads)")
struct BoundedThreadsTests {
    @Test("every job runs, at most `limit` at once, and `limit` do run at once when they block")
    func bounded() async {
        let threads = BoundedThreads(limit: 3, name: "test.bounded")
        let probe = ConcurrencyProbe()
        let gate = DispatchSemaphore(value: 0)
        let inside = AsyncStream<Void>.makeStream()
        let done = DispatchGroup()
        for _ in 0..<12 {
            done.enter()
            threads.run {
                probe.enter()
                inside.continuation.yield()
                gate.wait()  // blocks its own thread, never a pool thread: the subject of the type
                probe.leave()
                done.leave()
            }
        }
        // Three jobs inside, each holding its thread: the other nine wait for one of them.
        var entered = 0
        for await _ in inside.stream {
            entered += 1
            if entered == 3 { break }
        }
        #expect(probe.peak == 3)
        for _ in 0..<12 { gate.signal() }
        await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
        #expect(probe.peak == 3, "never more than the limit")
    }

    @Test("one thread takes the jobs in the order they were given")
    func ordered() async {
        let threads = BoundedThreads(limit: 1, name: "test.ordered")
        let order = Mutex<[Int]>([])
        let done = DispatchGroup()
        for index in 0..<50 {
            done.enter()
            threads.run {
                order.withLock { $0.append(index) }
                done.leave()
            }
        }
        await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
        #expect(order.withLock { $0 } == Array(0..<50))
    }

    @Test("a job given after the threads ended starts a new one")
    func restarts() async {
        let threads = BoundedThreads(limit: 2, name: "test.restart")
        for round in 0..<3 {
            let ran = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                threads.run { continuation.resume(returning: round) }
            }
            #expect(ran == round)
        }
    }
}
