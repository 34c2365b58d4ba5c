import Dispatch
@testable import Domain
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

/// Holds the release of one source's items until the test lets it go; releases the others at once.
private final class HoldingStream: ItemStream {
    private let held: Int
    private let release = Mutex<(@Sendable () -> Void)?>(nil)
    private let finished = AsyncStream<Void>.makeStream()

    init(holding index: Int) {
        held = index
    }

    func source(at index: Int, _ source: SourceDescriptor, didEmit items: [Item]) {}
    func source(at index: Int, didFinish report: SourceReport) {}

    func source(at index: Int, didFinish report: SourceReport, released: @escaping @Sendable () -> Void) {
        guard index == held else { return released() }
        release.withLock { $0 = released }
        finished.continuation.yield()
    }

    /// Returns once the held source finished.
    func heldFinished() async {
        for await _ in finished.stream { return }
    }

    func letGo() {
        release.withLock { $0 }?()
    }
}

/// `AggregateSourcesUseCase.execute` with a shared admission, suspending until it is done.
private func execute(
    _ sources: [PlannedSource], admission: Admission, cancellation: CancellationToken? = nil, stream: (any ItemStream)? = nil
) async -> AggregateReport {
    await withCheckedContinuation { continuation in
        AggregateSourcesUseCase().execute(sources, cancellation: cancellation, stream: stream, admission: admission) {
            continuation.resume(returning: $0)
        }
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

    @Test("runs sharing one admission share its limit: a second run's sources wait for the first run's places")
    func sharedAcrossRuns() async {
        let admission = Admission(limit: 2)
        let probe = ConcurrencyProbe()
        let started = Counter()
        let cancellation = CancellationToken()
        let hung = (0..<2).map { index in
            PlannedSource(descriptor: descriptor("a\(index)", timeout: 3600),
                          plan: .load(AdmittedSource(probe: probe, started: started, hangs: true)))
        }
        let first = Task { await execute(hung, admission: admission, cancellation: cancellation) }
        await started.reached(2)
        let later = (0..<3).map { index in
            PlannedSource(descriptor: descriptor("b\(index)"), plan: .load(AdmittedSource(probe: probe, started: started)))
        }
        let reports = AsyncStream<AggregateReport>.makeStream()
        // Returns once each source was started or queued.
        AggregateSourcesUseCase().execute(later, admission: admission) { reports.continuation.yield($0) }
        #expect(admission.waiting == 3, "the second run's sources wait while the first run holds every place")
        #expect(started.value == 2)
        cancellation.cancel()
        _ = await first.value
        var next = reports.stream.makeAsyncIterator()
        let second = await next.next()
        #expect(second?.sources.map(\.status) == [.ok, .ok, .ok])
        #expect(probe.peak <= 2, "peak \(probe.peak)")
    }

    @Test("a source keeps its place until its stream released its items (held for the store's part)")
    func placeKeptUntilReleased() async {
        let admission = Admission(limit: 1)
        let stream = HoldingStream(holding: 0)
        let sources = ["held", "next"].map { PlannedSource(descriptor: descriptor($0), plan: .load(InstantSource())) }
        let running = Task { await execute(sources, admission: admission, stream: stream) }
        await stream.heldFinished()
        #expect(admission.waiting == 1, "the next source waits while the first one's items are held")
        stream.letGo()
        let report = await running.value
        #expect(report.sources.map(\.status) == [.ok, .ok])
        #expect(admission.waiting == 0)
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
