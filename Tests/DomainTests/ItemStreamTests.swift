import Dispatch
import Domain
import Foundation
import ProviderTesting
import Synchronization
import Testing

/// An item stream that records what reaches it.
private final class RecordingStream: ItemStream {
    private let log = Mutex<[String]>([])

    init() {}

    var events: [String] { log.withLock { $0 } }

    func source(at index: Int, _ source: SourceDescriptor, didEmit items: [Item]) {
        log.withLock { $0.append("\(index) \(source.id) items \(items.map(\.id).joined(separator: ","))") }
    }

    func source(at index: Int, didFinish report: SourceReport) {
        log.withLock { $0.append("\(index) \(report.id) finished \(report.status.rawValue)") }
    }
}

/// An output that takes a while over each batch (a reader of stdout slower than the source): while it holds a
/// batch, `clock` moves on by `pause`, longer than the source's timeout, so only a paused deadline lets the source
/// finish. The clock is moved from a thread of its own, as a timer would fire, not inside the source's emit.
private final class SlowReader: ItemStream {
    private let log = Mutex<[String]>([])
    let pause: Double
    let clock: TestClock

    init(pause: Double, clock: TestClock) {
        self.pause = pause
        self.clock = clock
    }

    var taken: [String] { log.withLock { $0 } }

    func source(at index: Int, _ source: SourceDescriptor, didEmit items: [Item]) {
        let moved = DispatchSemaphore(value: 0)
        Thread { [clock, pause] in
            clock.advance(by: pause)
            moved.signal()
        }.start()
        moved.wait()  // the source's own thread (`OwnThreadSource`), never a pool thread
        log.withLock { $0 += items.map(\.id) }
    }

    func source(at index: Int, didFinish report: SourceReport) {}
}

/// Emits its batches one after another from a thread of its own (where the stream may block), then finishes.
private struct OwnThreadSource: ItemSource {
    let batches: [[String]]

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let batches = batches
        Thread {
            for batch in batches { receiver.emit(batch.map { Item(kind: .record, id: $0, title: $0) }) }
            receiver.finish()
        }.start()
    }
}

/// Units read in batches, each after its own delay, so later units can finish first.
private struct BatchedRepository: RecordRepository {
    /// Per unit: its batches of record ids, how long before they come, and an error after them if any.
    let units: [(name: String, batches: [[String]], delay: Double, error: SourceError?)]

    func recordUnits() -> Result<[String], SourceError> { .success(units.map(\.name)) }

    func streamRecords(
        in unit: String, cancellation: CancellationToken,
        onRecords: @escaping @Sendable ([Record]) -> Void,
        completion: @escaping @Sendable (SourceError?) -> Void
    ) {
        let spec = units.first { $0.name == unit }!
        DispatchQueue.global().asyncAfter(deadline: .now() + spec.delay) {
            for batch in spec.batches { onRecords(batch.map { Record(id: $0, title: $0, fields: [:]) }) }
            completion(spec.error)
        }
    }
}

@Suite("Streaming: items reach an item stream as they arrive, in order, instead of the report")
struct ItemStreamTests {
    @Test("every source's batches go to the stream and only their count to its report")
    func streamedAndKept() async {
        let stream = RecordingStream()
        let report = await AggregateSourcesUseCase().execute([
            PlannedSource(descriptor: descriptor("live"), plan: .load(ScriptedSource(behaviour: .items(["a", "b"], after: 0)))),
            PlannedSource(descriptor: descriptor("kept"), plan: .load(ScriptedSource(behaviour: .items(["c"], after: 0)))),
            PlannedSource(descriptor: descriptor("off"), plan: .skip(reason: "disabled", error: nil)),
        ], stream: stream)
        #expect(report.sources.map(\.items.count) == [0, 0, 0])
        #expect(report.sources.map(\.itemCount) == [2, 1, 0])
        #expect(report.sources[0].streamedItemCount == 2)
        let events = stream.events
        #expect(events.contains("0 live items a,b"))
        #expect(events.contains("1 kept items c"))
        // Every source finishes through the stream, skipped ones included, and a streamed source's batches
        // all come before its finish.
        #expect(Set(events.filter { $0.contains("finished") }) == ["0 live finished ok", "1 kept finished ok", "2 off finished skipped"])
        #expect(events.firstIndex(of: "0 live items a,b")! < events.firstIndex(of: "0 live finished ok")!)
    }

    @Test("a streamed source that times out keeps what it streamed and is counted")
    func timeoutKeepsStreamed() async {
        let stream = RecordingStream()
        let report = await AggregateSourcesUseCase().execute([
            PlannedSource(descriptor: descriptor("slow", timeout: 0.3), plan: .load(ScriptedSource(behaviour: .hangs(afterEmitting: ["x"])))),
        ], stream: stream)
        #expect(report.sources[0].status == .timeout)
        #expect(report.sources[0].itemCount == 1)
        #expect(stream.events == ["0 slow items x", "0 slow finished timeout"])
    }

    @Test("waiting for the output to take a batch stops the source's clock: a slow reader times nothing out")
    func slowOutputIsNotTheSourcesTime() async {
        let clock = TestClock()
        let stream = SlowReader(pause: 1.5, clock: clock)
        let report = await AggregateSourcesUseCase(clock: clock).execute([
            PlannedSource(descriptor: descriptor("paced", timeout: 1), plan: .load(OwnThreadSource(batches: [["a"], ["b"]]))),
        ], stream: stream)
        #expect(report.sources[0].status == .ok, "\(report.sources[0].error?.message ?? "")")
        #expect(report.sources[0].itemCount == 2)
        #expect(stream.taken == ["a", "b"])
    }

    @Test("record units are read concurrently yet delivered in unit order, the first unit's batches as they come")
    func unitsInOrder() async {
        let repository = BatchedRepository(units: [
            ("one", [["1a", "1b"], ["1c"]], 0.4, nil),
            ("two", [["2a"], ["2b"]], 0, nil),
            ("three", [["3a"]], 0.1, nil),
        ])
        let report = await runToCompletion(ReadRecordsUseCase(repository: repository), concurrency: 3)
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["1a", "1b", "1c", "2a", "2b", "3a"])
    }

    @Test("a unit failing part-way keeps its batches before the failure and becomes a warning")
    func partialUnit() async {
        let repository = BatchedRepository(units: [
            ("good", [["g1"]], 0, nil),
            ("broken", [["b1", "b2"]], 0, SourceError(.parse, "line 3: invalid JSON")),
            ("after", [["a1"]], 0, nil),
        ])
        let report = await runToCompletion(ReadRecordsUseCase(repository: repository), concurrency: 1)
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["g1", "b1", "b2", "a1"])
        #expect(report.warnings == ["broken: parse: line 3: invalid JSON"])
    }

    @Test("when every unit fails the source fails, still keeping what was read")
    func allUnitsFail() async {
        let repository = BatchedRepository(units: [
            ("only", [["o1"]], 0, SourceError(.parse, "line 2: invalid JSON")),
        ])
        let report = await runToCompletion(ReadRecordsUseCase(repository: repository))
        #expect(report.status == .error)
        #expect(report.error == SourceError(.parse, "only: line 2: invalid JSON"))
        #expect(report.items.map(\.id) == ["o1"])
    }
}
