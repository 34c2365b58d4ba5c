import Domain
import Foundation
import ProviderTesting
import Synchronization
import Testing

/// Records what a consumer took.
private final class Forwarded: Sendable {
    private let log = Mutex<[String]>([])
    func append(_ producer: Int, _ batch: String) { log.withLock { $0.append("\(producer):\(batch)") } }
    var all: [String] { log.withLock { $0 } }

    /// Takes every batch that is ready now, without waiting.
    func takeReady(_ handoff: OrderedHandoff<String>) {
        while let (producer, batch, _) = handoff.nextIfReady() { append(producer, batch) }
    }
}

@Suite("Ordered hand-off: concurrent producers come out in producer order, the first one streaming")
struct OrderedHandoffTests {
    @Test("the head producer's batches pass at once; later producers wait until those before them finish")
    func headStreams() {
        let forwarded = Forwarded()
        let handoff = OrderedHandoff<String>(producers: 3, capacity: 8)
        handoff.push("a1", from: 0)
        handoff.push("c1", from: 2)
        handoff.push("b1", from: 1)
        forwarded.takeReady(handoff)
        #expect(forwarded.all == ["0:a1"])  // only the head has gone out
        handoff.finish(2)
        handoff.push("a2", from: 0)
        forwarded.takeReady(handoff)
        #expect(forwarded.all == ["0:a1", "0:a2"])
        handoff.finish(0)  // 1 becomes the head: its batch goes out; 2 is finished but must wait for 1
        forwarded.takeReady(handoff)
        #expect(forwarded.all == ["0:a1", "0:a2", "1:b1"])
        handoff.push("b2", from: 1)
        forwarded.takeReady(handoff)
        #expect(forwarded.all.last == "1:b2")
        handoff.finish(1)  // 2 had finished already: all of it goes out now
        forwarded.takeReady(handoff)
        #expect(forwarded.all == ["0:a1", "0:a2", "1:b1", "1:b2", "2:c1"])
        #expect(handoff.next() == nil, "every producer finished and everything was taken")
    }

    @Test("drain tells each producer's end after its last batch, in order, one without batches too; `more` counts batches only")
    func producerEnds() async {
        let handoff = OrderedHandoff<String>(producers: 3, capacity: 8)
        handoff.push("a1", from: 0)
        handoff.push("a2", from: 0)
        handoff.finish(0)
        handoff.finish(1)
        handoff.push("c1", from: 2)
        handoff.finish(2)
        let log = Mutex<[String]>([])
        await withCheckedContinuation { continuation in
            handoff.drain(
                name: "test", { producer, batch, more in log.withLock { $0.append("\(producer):\(batch) more=\(more)") } },
                finished: { producer in log.withLock { $0.append("end \(producer)") } }, done: { continuation.resume() })
        }
        // a2 is the last batch of its producer: a writer that gathers while `more` would otherwise hold it back.
        #expect(log.withLock { $0 } == ["0:a1 more=true", "0:a2 more=false", "end 0", "end 1", "2:c1 more=false", "end 2"])
    }

    @Test("producers finishing in reverse order still come out in order, each whole")
    func reverseFinish() {
        let forwarded = Forwarded()
        let handoff = OrderedHandoff<String>(producers: 4, capacity: 8)
        for producer in (0..<4).reversed() {
            handoff.push("x", from: producer)
            handoff.push("y", from: producer)
            handoff.finish(producer)
        }
        forwarded.takeReady(handoff)
        #expect(forwarded.all == ["0:x", "0:y", "1:x", "1:y", "2:x", "2:y", "3:x", "3:y"])
    }

    @Test("a batch after its producer finished, or a second finish, changes nothing")
    func lateBatch() {
        let forwarded = Forwarded()
        let handoff = OrderedHandoff<String>(producers: 2, capacity: 8)
        handoff.finish(0)
        handoff.finish(0)
        handoff.push("late", from: 0)
        handoff.push("b", from: 1)
        forwarded.takeReady(handoff)
        #expect(forwarded.all == ["1:b"])
    }

    @Test("many threads pushing at once lose nothing and keep each producer's order")
    func concurrentProducers() async {
        let forwarded = Forwarded()
        let handoff = OrderedHandoff<String>(producers: 8, capacity: 4)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            handoff.drain(name: "test.consumer", { producer, batch, _ in forwarded.append(producer, batch) },
                          done: { continuation.resume() })
            for producer in 0..<8 {
                let thread = Thread {
                    for batch in 0..<200 { handoff.push(String(batch), from: producer) }
                    handoff.finish(producer)
                }
                thread.start()
            }
        }
        let expected = (0..<8).flatMap { producer in (0..<200).map { "\(producer):\($0)" } }
        #expect(forwarded.all == expected)
    }

    @Test("the head producer waits while its untaken batches are at capacity: it never runs ahead of the consumer")
    func backPressure() async {
        let capacity = 2
        let handoff = OrderedHandoff<Int>(producers: 1, capacity: capacity)
        let returned = Atomic(0)
        let worstLead = await onOwnThread { () -> Int in
            let producer = Thread {
                for batch in 0..<300 {
                    handoff.push(batch, from: 0)
                    returned.add(1, ordering: .releasing)
                }
                handoff.finish(0)
            }
            producer.start()
            var taken = 0
            var worst = 0
            while handoff.next() != nil {
                taken += 1
                // A push can return only once there was room: at most `capacity` beyond what was taken.
                worst = max(worst, returned.load(ordering: .acquiring) - taken)
                var spin = 0
                for step in 0..<2_000 { spin &+= step }  // a slow consumer, so an unbounded producer would run ahead
                if spin == -1 { print(spin) }
            }
            return worst
        }
        #expect(worstLead <= capacity)
    }

    @Test("cancelling releases a waiting producer and ends the consumer")
    func cancel() async {
        let handoff = OrderedHandoff<Int>(producers: 1, capacity: 1)
        handoff.push(1, from: 0)
        let released = await onOwnThread { () -> Bool in
            let done = DispatchSemaphore(value: 0)
            let producer = Thread {
                handoff.push(2, from: 0)  // waits: the one slot is full
                done.signal()
            }
            producer.start()
            handoff.cancel()
            done.wait()
            return handoff.next() == nil
        }
        #expect(released)
    }

    @Test("batches taken from a producer that stays just ahead are let go, not kept until it falls behind")
    func releasesTakenBatches() {
        let released = Atomic(0)
        final class Batch: Sendable {
            let released: @Sendable () -> Void
            init(released: @escaping @Sendable () -> Void) { self.released = released }
            deinit { released() }
        }
        let handoff = OrderedHandoff<Batch>(producers: 1, capacity: 4)
        let make = { Batch { released.add(1, ordering: .relaxed) } }
        handoff.push(make(), from: 0)
        for _ in 0..<500 {
            handoff.push(make(), from: 0)  // always one untaken: the queue never empties
            _ = handoff.nextIfReady()
        }
        #expect(released.load(ordering: .relaxed) >= 500 - 2 * 4, "taken batches stay referenced: at most twice the capacity")
    }
}
