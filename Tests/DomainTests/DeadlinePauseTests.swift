import Dispatch
import Domain
import Foundation
import Testing

/// Waits, with its deadline's clock paused, as a request waiting for a slot of the run's limit does; then
/// finishes, having waited `seconds` (on a timer of its own, longer than its source's timeout).
private struct QueuedSource: ItemSource {
    var seconds: Double

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let resume = context.cancellation.pauseDeadline()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            resume()
            receiver.finish()
        }
    }
}

@Suite("A source's clock stops while it waits on the run")
struct DeadlinePauseTests {
    @Test("a paused deadline moves later while paused and stays put once resumed; `latest` bounds it")
    func pausedDeadline() throws {
        let start = DispatchTime.now()
        let token = CancellationToken(deadline: start + 10, latest: start + 20)
        #expect(token.deadline == start + 10)
        let resume = token.pauseDeadline()
        let paused = try #require(token.deadline)
        let later = try #require(token.deadline)
        #expect(paused > start + 10 && later >= paused)
        resume()
        resume()  // only the first call counts
        let resumed = try #require(token.deadline)
        #expect(token.deadline == resumed)
        #expect(resumed <= start + 20)
        let capped = CancellationToken(deadline: start + 10, latest: start + 10)
        let end = capped.pauseDeadline()
        #expect(capped.deadline == start + 10)
        end()
    }

    @Test("a timer that fired looks again when the deadline moved, never sooner than 50 ms while paused; else time is up")
    func nextCheck() throws {
        let start = DispatchTime.now()
        let token = CancellationToken(deadline: start)  // paused with no time left: the case that could spin
        #expect(token.nextCheck(afterFiringAt: start) == nil, "not paused: the time is up")
        let resume = token.pauseDeadline()
        let asked = DispatchTime.now()
        let again = try #require(token.nextCheck(afterFiringAt: start))
        #expect(again >= asked + .milliseconds(50))
        resume()
        let moved = try #require(token.deadline)
        #expect(token.nextCheck(afterFiringAt: moved) == nil, "fired at the moved deadline, no longer paused")
    }

    @Test("a source that waits on the run longer than its timeout is not timed out for it")
    func queuedSourceKeepsItsTime() async {
        let report = await AggregateSourcesUseCase().execute([
            PlannedSource(descriptor: descriptor("queued", timeout: 0.2), plan: .load(QueuedSource(seconds: 0.6))),
        ])
        #expect(report.sources[0].status == .ok, "\(String(describing: report.sources[0].error))")
    }

    @Test("the run's deadline still ends a source that is waiting on the run")
    func runDeadlineStillHolds() async {
        let report = await AggregateSourcesUseCase().execute([
            PlannedSource(descriptor: descriptor("queued", timeout: 0.2), plan: .load(QueuedSource(seconds: 5))),
        ], deadlineSeconds: 0.4)
        #expect(report.sources[0].status == .timeout)
        #expect(report.sources[0].error == SourceError(.timeout, "the run's deadline passed before this source finished"))
    }
}
