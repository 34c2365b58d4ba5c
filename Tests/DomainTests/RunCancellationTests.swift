import Dispatch
import Domain
import Foundation
import Synchronization
import Testing

/// Never finishes; notes when its own cancellation token is cancelled.
private final class CancellationProbe: ItemSource {
    private let cancelled = Mutex(false)

    var wasCancelled: Bool { cancelled.withLock { $0 } }

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        context.cancellation.onCancel { [self] in cancelled.withLock { $0 = true } }
    }
}

/// Finishes at once but leaves lingering work that ends a moment later, noting that it ended.
private final class LingeringSource: ItemSource {
    private let ended = Mutex(false)

    var lingeringEnded: Bool { ended.withLock { $0 } }

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let end = context.lingering.begin()
        receiver.finish()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { [self] in
            ended.withLock { $0 = true }
            end()
        }
    }
}

@Suite("Cancelling a run, and what a run waits for")
struct RunCancellationTests {
    @Test("a cancelled run reports every source still loading as timed out and cancels each one's own token")
    func cancelledRun() async {
        let probe = CancellationProbe()
        let cancellation = CancellationToken()
        cancellation.cancel()  // Ctrl-C before the sources even started
        let report = await AggregateSourcesUseCase().execute([
            PlannedSource(descriptor: descriptor("hung", timeout: 30), plan: .load(probe)),
            PlannedSource(descriptor: descriptor("off"), plan: .skip(reason: "disabled", error: nil)),
        ], cancellation: cancellation)
        #expect(report.sources.map(\.status) == [.timeout, .skipped])
        #expect(report.sources[0].error == SourceError(.timeout, "the run was cancelled before this source finished"))
        #expect(probe.wasCancelled)
    }

    @Test("the run completes only once the lingering work its sources registered is over")
    func waitsForLingeringWork() async {
        let source = LingeringSource()
        let report = await AggregateSourcesUseCase().execute([
            PlannedSource(descriptor: descriptor("leaves-work"), plan: .load(source)),
        ])
        #expect(report.sources[0].status == .ok)
        #expect(source.lingeringEnded)
    }
}
