import Foundation
@testable import Server
import Testing

/// The throttle as a state machine: explicit times, no clock.
@Suite("serve: LoginThrottle")
struct LoginThrottleTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("five failures within the window refuse the address until the window ends; other addresses are untouched")
    func refusesAfterFailures() {
        let throttle = LoginThrottle(limits: .init(maxFailures: 5, window: 60, maxAddresses: 16))
        for second in 0..<4 { throttle.failed("10.0.0.1", at: start + Double(second)) }
        #expect(throttle.retryAfter(for: "10.0.0.1", at: start + 5) == nil, "four failures: still allowed")
        throttle.failed("10.0.0.1", at: start + 10)
        #expect(throttle.retryAfter(for: "10.0.0.1", at: start + 10) == 50, "the window began with the first failure")
        #expect(throttle.retryAfter(for: "10.0.0.1", at: start + 59.2) == 1)
        #expect(throttle.retryAfter(for: "10.0.0.2", at: start + 10) == nil)
        #expect(throttle.retryAfter(for: "10.0.0.1", at: start + 60) == nil, "the window is over")
        #expect(throttle.rememberedAddresses == 0, "and the address forgotten")
    }

    @Test("a right token clears the address's failures")
    func successClears() {
        let throttle = LoginThrottle(limits: .init(maxFailures: 2, window: 60, maxAddresses: 16))
        throttle.failed("a", at: start)
        throttle.succeeded("a")
        throttle.failed("a", at: start + 1)
        #expect(throttle.retryAfter(for: "a", at: start + 1) == nil)
    }

    @Test("at most maxAddresses are remembered: expired ones go first, then the oldest")
    func bounded() {
        let throttle = LoginThrottle(limits: .init(maxFailures: 1, window: 60, maxAddresses: 3))
        for index in 0..<3 { throttle.failed("old\(index)", at: start) }
        throttle.failed("new", at: start + 120)
        #expect(throttle.rememberedAddresses == 1, "the three expired addresses went")
        for index in 0..<10 { throttle.failed("busy\(index)", at: start + 121 + Double(index)) }
        #expect(throttle.rememberedAddresses == 3)
        #expect(throttle.retryAfter(for: "busy9", at: start + 131) != nil, "the newest is kept")
        #expect(throttle.retryAfter(for: "busy0", at: start + 131) == nil, "the oldest made room")
    }
}
