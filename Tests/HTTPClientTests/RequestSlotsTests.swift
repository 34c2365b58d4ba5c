import Foundation
import HTTPClient
import Synchronization
import Testing

/// The process-wide limit's bookkeeping, driven without servers: who gets a slot, when, and in which order.
@Suite("Request slots")
struct RequestSlotsTests {

    @Test("up to the limit every acquire is granted at once; past it, a release hands the slot to the oldest waiter")
    func fifoHandOver() async throws {
        let slots = RequestSlots(limit: 2)
        let granted = Mutex<[Int]>([])
        let held = Mutex<[Int: RequestSlot]>([:])
        let (grants, grantsContinuation) = AsyncStream<Int>.makeStream()
        var next = grants.makeAsyncIterator()
        for index in 0..<5 {
            slots.acquire { slot in
                held.withLock { $0[index] = slot }
                granted.withLock { $0.append(index) }
                grantsContinuation.yield(index)
            }
        }
        _ = await next.next()
        _ = await next.next()
        // The first two ran on the caller's thread, before `acquire` returned.
        #expect(granted.withLock { $0 } == [0, 1])
        #expect(slots.usage == (2, 3))

        held.withLock { $0[0] }?.release()
        _ = await next.next()
        #expect(granted.withLock { $0 } == [0, 1, 2])
        #expect(slots.usage == (2, 2))

        held.withLock { $0[2] }?.release()
        held.withLock { $0[1] }?.release()
        _ = await next.next()
        _ = await next.next()
        #expect(granted.withLock { $0 } == [0, 1, 2, 3, 4])
        #expect(slots.usage == (2, 0))
        #expect(slots.peakInUse == 2)

        for index in 3...4 { held.withLock { $0[index] }?.release() }
        #expect(slots.usage == (0, 0))
    }

    @Test("a slot released twice counts once")
    func doubleRelease() {
        let slots = RequestSlots(limit: 1)
        let held = Mutex<RequestSlot?>(nil)
        slots.acquire { slot in held.withLock { $0 = slot } }
        let slot = held.withLock { $0 }
        slot?.release()
        slot?.release()
        #expect(slots.usage == (0, 0))
        // The slot is free exactly once: one more acquire is granted at once, the next one waits.
        slots.acquire { slot in held.withLock { $0 = slot } }
        slots.acquire { _ in }
        #expect(slots.usage == (1, 1))
    }

    @Test("a limit below 1 is taken as 1")
    func atLeastOne() {
        #expect(RequestSlots(limit: 0).limit == 1)
    }
}
