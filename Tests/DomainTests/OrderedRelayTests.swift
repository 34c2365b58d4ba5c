import Domain
import Synchronization
import Testing

/// Records what a relay forwards.
private final class Forwarded: Sendable {
    private let log = Mutex<[String]>([])
    func append(_ producer: Int, _ batch: String) { log.withLock { $0.append("\(producer):\(batch)") } }
    var all: [String] { log.withLock { $0 } }
}

@Suite("Ordered relay: concurrent producers come out in producer order, the first one streaming")
struct OrderedRelayTests {
    @Test("the head producer's batches pass at once; later producers wait until those before them finish")
    func headStreams() {
        let forwarded = Forwarded()
        let relay = OrderedRelay<String>(producers: 3) { forwarded.append($0, $1) }
        relay.push("a1", from: 0)
        relay.push("c1", from: 2)
        relay.push("b1", from: 1)
        #expect(forwarded.all == ["0:a1"])  // only the head has gone out
        relay.finish(2)
        relay.push("a2", from: 0)
        #expect(forwarded.all == ["0:a1", "0:a2"])
        relay.finish(0)  // 1 becomes the head: its batch goes out; 2 is finished but must wait for 1
        #expect(forwarded.all == ["0:a1", "0:a2", "1:b1"])
        relay.push("b2", from: 1)
        #expect(forwarded.all.last == "1:b2")
        relay.finish(1)  // 2 had finished already: all of it goes out now
        #expect(forwarded.all == ["0:a1", "0:a2", "1:b1", "1:b2", "2:c1"])
    }

    @Test("producers finishing in reverse order still come out in order, each whole")
    func reverseFinish() {
        let forwarded = Forwarded()
        let relay = OrderedRelay<String>(producers: 4) { forwarded.append($0, $1) }
        for producer in (0..<4).reversed() {
            relay.push("x", from: producer)
            relay.push("y", from: producer)
            relay.finish(producer)
        }
        #expect(forwarded.all == ["0:x", "0:y", "1:x", "1:y", "2:x", "2:y", "3:x", "3:y"])
    }

    @Test("a batch after its producer finished, or a second finish, changes nothing")
    func lateBatch() {
        let forwarded = Forwarded()
        let relay = OrderedRelay<String>(producers: 2) { forwarded.append($0, $1) }
        relay.finish(0)
        relay.finish(0)
        relay.push("late", from: 0)
        relay.push("b", from: 1)
        #expect(forwarded.all == ["1:b"])
    }

    @Test("many threads pushing at once lose nothing and keep each producer's order")
    func concurrentProducers() async {
        let forwarded = Forwarded()
        let relay = OrderedRelay<String>(producers: 8) { forwarded.append($0, $1) }
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<8 {
                group.addTask {
                    for batch in 0..<200 { relay.push(String(batch), from: producer) }
                    relay.finish(producer)
                }
            }
        }
        let expected = (0..<8).flatMap { producer in (0..<200).map { "\(producer):\($0)" } }
        #expect(forwarded.all == expected)
    }
}
