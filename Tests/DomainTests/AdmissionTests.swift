import Dispatch
import Domain
import Foundation
import Synchronization
import Testing

/// A count several sources share; each addition is also an event a test can wait on.
private final class Counter: Sendable {
    private let count = Mutex(0)
    private let added = AsyncStream<Int>.makeStream()

    func add() {
        let value = count.withLock { count in
            count += 1
            return count
        }
        added.continuation.yield(value)
    }

    var value: Int { count.withLock { $0 } }

    /// Returns once the count reached `target` (at once if it has).
    func reached(_ target: Int) async {
        guard value < target else { return }
        for await value in added.stream where value >= target { return }
    }
}

/// Counts its loads and the loads at once; finishes a moment later, or never (`hangs`) unless its run ends it.
private final class AdmittedSource: ItemSource {
    let probe: ConcurrencyProbe
    let started: Counter
    let hangs: Bool

    init(probe: ConcurrencyProbe, started: Counter, hangs: Bool = false) {
        self.probe = probe
        self.started = started
        self.hangs = hangs
    }

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        started.add()
        probe.enter()
        if hangs {
            context.cancellation.onCancel { [probe] in probe.leave() }
            return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { [probe] in
            probe.leave()
            receiver.emit([Item(kind: .record, id: "x", title: "x")])
            receiver.finish()
        }
    }
}

/// Finishes the moment it is loaded.
private struct InstantSource: ItemSource {
    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        receiver.finish()
    }
}

@Suite("Sources admitted as earlier ones finish (maxLoading)")
struct AdmissionTests {
    @Test("at most maxLoading sources load at once, and every source runs")
    func bounded() async {
        let probe = ConcurrencyProbe()
        let started = Counter()
        let sources = (0..<40).map { index in
            PlannedSource(descriptor: descriptor("s\(index)"), plan: .load(AdmittedSource(probe: probe, started: started)))
        }
        let report = await AggregateSourcesUseCase().execute(sources, maxLoading: 4)
        #expect(report.sources.allSatisfy { $0.status == .ok && $0.items.count == 1 })
        #expect(started.value == 40)
        #expect(probe.peak <= 4, "peak \(probe.peak)")
    }

    @Test("a run cancelled while sources wait reports the waiting ones timed out too, and ends")
    func cancelledWhileWaiting() async {
        let probe = ConcurrencyProbe()
        let started = Counter()
        let cancellation = CancellationToken()
        let sources = (0..<10).map { index in
            // A timeout no loaded machine reaches: the hung sources end by the cancellation, not by timing out
            // (seen beside a CPU-heavy job with the default 5 s: two more sources started before the cancel).
            PlannedSource(descriptor: descriptor("s\(index)", timeout: 3600),
                          plan: .load(AdmittedSource(probe: probe, started: started, hangs: true)))
        }
        let running = Task { await AggregateSourcesUseCase().execute(sources, cancellation: cancellation, maxLoading: 2) }
        // The first two hang; the other eight wait for them.
        await started.reached(2)
        let startedBeforeCancel = started.value
        cancellation.cancel()
        let report = await running.value
        #expect(startedBeforeCancel == 2, "only maxLoading sources started while the first ones hung")
        #expect(report.sources.count == 10)
        #expect(report.sources.allSatisfy { $0.status == .timeout && $0.error?.message.contains("cancelled") == true })
    }

    @Test("a source's timeout counts from its start, not from the run's: one queued behind a hung source still runs")
    func timeoutFromStart() async {
        let probe = ConcurrencyProbe()
        let started = Counter()
        let report = await AggregateSourcesUseCase().execute([
            PlannedSource(descriptor: descriptor("hung", timeout: 0.3),
                          plan: .load(AdmittedSource(probe: probe, started: started, hangs: true))),
            PlannedSource(descriptor: descriptor("queued", timeout: 0.2), plan: .load(InstantSource())),
        ], maxLoading: 1)
        #expect(report.sources[0].status == .timeout)
        #expect(report.sources[1].status == .ok, "queued 0.3 s behind the hung source, with a 0.2 s timeout of its own")
    }
}
