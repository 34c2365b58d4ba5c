import ProviderTesting
@testable import Server
import Synchronization
import Testing

@Suite("KeepAliveTicker: serve's keep-alive on the server's clock")
struct KeepAliveTickerTests {
    @Test("the event streams are woken once per interval, and never again once the server stopped")
    func ticks() {
        let clock = TestClock()
        let ticks = Atomic(0)
        let ticker = KeepAliveTicker(clock: clock, every: 15) { ticks.add(1, ordering: .relaxed) }
        clock.advance(by: 14.9)
        #expect(ticks.load(ordering: .relaxed) == 0)
        clock.advance(by: 0.1)
        #expect(ticks.load(ordering: .relaxed) == 1)
        clock.advance(by: 45)
        #expect(ticks.load(ordering: .relaxed) == 4, "one a step of 15 s, each set when the one before fired")
        ticker.stop()
        clock.advance(by: 60)
        #expect(ticks.load(ordering: .relaxed) == 4)
        #expect(clock.pendingWakeUps == 0, "the wake-up set before the stop found it stopped and set no other")
    }
}
