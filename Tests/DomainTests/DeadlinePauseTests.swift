import Dispatch
import Domain
import Foundation
import ProviderTesting
import Testing

/// Waits, with its deadline's clock paused, as a request waiting for a slot of the run's limit does; then
/// finishes, having waited `seconds` (on a wake-up of `clock`, longer than its source's timeout).
private struct QueuedSource: ItemSource {
    var seconds: Double
    var clock: TestClock

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let resume = context.cancellation.pauseDeadline()
        clock.wake(after: seconds) {
            resume()
            receiver.finish()
        }
    }
}

@Suite("A source's clock stops while it waits on the run")
struct DeadlinePauseTests {
    @Test("a paused deadline moves later while paused and stays put once resumed; `latest` bounds it")
    func pausedDeadline() throws {
        let clock = TestClock()
        let start = clock.uptime
        let token = CancellationToken(deadline: start + 10, latest: start + 20, clock: clock)
        #expect(token.deadline == start + 10)
        let resume = token.pauseDeadline()
        clock.advance(by: 3)
        #expect(token.deadline == start + 13, "paused 3 s so far")
        clock.advance(by: 2)
        #expect(token.deadline == start + 15)
        resume()
        resume()  // only the first call counts
        clock.advance(by: 4)
        #expect(token.deadline == start + 15, "resumed: the deadline stays put")
        #expect(token.remainingSeconds == 6)
        let again = token.pauseDeadline()
        clock.advance(by: 30)
        #expect(token.deadline == start + 20, "never past `latest`")
        again()
        let capped = CancellationToken(deadline: start + 10, latest: start + 10, clock: clock)
        let end = capped.pauseDeadline()
        clock.advance(by: 1)
        #expect(capped.deadline == start + 10)
        end()
    }

    @Test("a timer that fired looks again when the deadline moved, never sooner than 50 ms while paused; else time is up")
    func nextCheck() throws {
        let clock = TestClock()
        let start = clock.uptime
        let token = CancellationToken(deadline: start, clock: clock)  // paused with no time left: the case that could spin
        #expect(token.nextCheck(afterFiringAt: start) == nil, "not paused: the time is up")
        let resume = token.pauseDeadline()
        clock.advance(by: 0.01)
        let again = try #require(token.nextCheck(afterFiringAt: start))
        #expect(again == clock.uptime + .milliseconds(50), "moved 10 ms, but looked at again no sooner than 50 ms")
        resume()
        let moved = try #require(token.deadline)
        #expect(moved == start + .milliseconds(10), "later by the time paused")
        #expect(token.nextCheck(afterFiringAt: moved) == nil, "fired at the moved deadline, no longer paused")
    }

    @Test("a source that waits on the run longer than its timeout is not timed out for it")
    func queuedSourceKeepsItsTime() async {
        let clock = TestClock()
        async let run = AggregateSourcesUseCase(clock: clock).execute([
            PlannedSource(descriptor: descriptor("queued", timeout: 0.2), plan: .load(QueuedSource(seconds: 0.6, clock: clock))),
        ])
        await clock.waitForWakeUps(2)  // the source's timeout and its wait
        clock.advance(by: 0.6)
        let report = await run
        #expect(report.sources[0].status == .ok, "\(String(describing: report.sources[0].error))")
        #expect(report.sources[0].duration == 0.6)
    }

    @Test("the run's deadline still ends a source that is waiting on the run")
    func runDeadlineStillHolds() async {
        let clock = TestClock()
        async let run = AggregateSourcesUseCase(clock: clock).execute([
            PlannedSource(descriptor: descriptor("queued", timeout: 0.2), plan: .load(QueuedSource(seconds: 5, clock: clock))),
        ], deadlineSeconds: 0.4)
        await clock.waitForWakeUps(2)  // the source's timeout and its wait
        clock.advance(by: 0.4)  // the run's deadline, far before the source's wait ends
        let report = await run
        #expect(report.sources[0].status == .timeout)
        #expect(report.sources[0].error == SourceError(.timeout, "the run's deadline passed before this source finished"))
    }
}
