@testable import App
import Dispatch
import Domain
import Foundation
import SQLiteStore
import ProviderKit
import ProviderTesting
import Synchronization
import Testing

/// Emits its batches one after another after a delay, then finishes.
private struct BatchesSource: ItemSource {
    let batches: [[String]]
    var delay: Double = 0
    /// Called before the first batch (an HTTP source's response passing through the cache).
    var beforeFirstBatch: @Sendable () -> Void = {}

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            beforeFirstBatch()
            for batch in batches { receiver.emit(batch.map { Item(kind: .record, id: $0, title: $0) }) }
            receiver.finish()
        }
    }
}

/// Keeps each source's first item in its report, as serve's output keeps only the items it announces, and notes the
/// new ids it was told.
private final class KeepsFirst: RunOutput {
    let told = Mutex<[String: Set<String>?]>([:])
    private let pending = Mutex<[Item]>([])

    func write(_ items: [Item], of source: SourceDescriptor, more: Bool) {
        pending.withLock { $0.append(contentsOf: items) }
    }

    func finish(_ source: SourceReport, newItemIDs: Set<String>?) -> SourceReport {
        let items = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        told.withLock { $0[source.id] = newItemIDs }
        var report = source
        report.items = Array(items.prefix(1))
        report.streamedItemCount = items.count - report.items.count
        return report
    }
}

/// What the stream writes, in order.
private final class Written: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ id: String, _ items: [Item]) { lines.withLock { $0.append(contentsOf: items.map { "\(id):\($0.id)" }) } }
    var all: [String] { lines.withLock { $0 } }
}

private func manifestSource(_ id: String, ttl: Double) -> Manifest.Source {
    Manifest.Source(id: id, provider: "echo", enabled: true, timeoutSeconds: 3600, concurrency: 2, cacheTTLSeconds: ttl,
                    options: .object([:]), index: 0)
}

@Suite("Streaming run: items go out in plan order while the run goes on, with the store's part per source")
struct StreamingRunTests {
    let database: AppDatabase

    init() async throws {
        let directory = ScratchDirectory.path("aggregate-stream")
        database = try await blocking { try AppDatabase.open(at: directory.appendingPathComponent("aggregate.sqlite")) }
    }

    /// One streamed run of `sources` (id → source), its items as written and its outcome.
    private func run(
        _ sources: [(id: String, source: any ItemSource)], storage: RunStorage, newOnly: Bool = false,
        registered: Set<String> = [], markNew: Bool = false, output: (any RunOutput)? = nil
    ) async -> (written: [String], outcome: RunStorage.Outcome) {
        let written = Written()
        let plan = sources.map { PlannedSource(descriptor: descriptor($0.id), plan: .load($0.source)) }
        for source in sources where !registered.contains(source.id) {  // as the plan does for every loaded source
            _ = storage.services(for: manifestSource(source.id, ttl: 0), identity: .testing(source.id))
        }
        let stream = StreamingRun(
            sources: plan.map(\.descriptor), storage: storage, query: nil, newOnly: newOnly, markNew: markNew,
            output: output ?? StreamedOutput { source, items, _ in written.append(source.id, items) })
        let loaded = await AggregateSourcesUseCase().execute(plan, stream: stream)
        let outcome = await withCheckedContinuation { continuation in  // waits for the output and history threads
            stream.outcome(loaded) { continuation.resume(returning: $0) }
        }
        return (written.all, outcome)
    }

    private func descriptor(_ id: String) -> SourceDescriptor {
        // A timeout no test here means to reach, nor any load: 40,000 ids read twice took over 5 s under the full
        // suite's load, and the source's clock is the wall clock. What these tests wait for is the run's end.
        SourceDescriptor(id: id, provider: "echo", timeoutSeconds: 3600, concurrency: 2)
    }

    @Test("sources come out in plan order even when a later one finishes first; reports keep counts, not items")
    func planOrder() async {
        let storage = RunStorage(store: .sqlite(database))
        let (written, outcome) = await run([
            ("slow", BatchesSource(batches: [["a", "b"], ["c"]], delay: 0.3)),
            ("fast", BatchesSource(batches: [["x"], ["y"]])),
        ], storage: storage)
        #expect(written == ["slow:a", "slow:b", "slow:c", "fast:x", "fast:y"])
        #expect(outcome.report.sources.map(\.itemCount) == [3, 2])
        #expect(outcome.report.sources.allSatisfy { $0.items.isEmpty })
    }

    @Test("a run that learns which items are new keeps in its outcome the new ids of the items its output kept")
    func newIDsOfKeptItems() async {
        let storage = RunStorage(store: .sqlite(database))
        _ = await run([("feed", BatchesSource(batches: [["1"]]))], storage: storage, markNew: true)
        let output = KeepsFirst()
        let (_, outcome) = await run(
            [("feed", BatchesSource(batches: [["2", "1"], ["3"]]))], storage: storage, markNew: true, output: output)
        #expect(output.told.withLock { $0["feed"] } == ["2", "3"], "the output is told every new id")
        // Serve's output keeps a few items of a source's thousands: the run holds no more ids than those till it ends.
        #expect(outcome.newItemIDs["feed"] == ["2"])
    }

    @Test("streamed items are recorded in the history, so a later --new run shows only new ones")
    func historyAndNew() async {
        let storage = RunStorage(store: .sqlite(database))
        let first = await run([("log", BatchesSource(batches: [["1", "2"], ["3"]]))], storage: storage, newOnly: true)
        #expect(first.written == ["log:1", "log:2", "log:3"])
        #expect(first.outcome.notes == ["log: first run with --new: all 3 items are new"])

        let plain = await run([("log", BatchesSource(batches: [["3", "4"]]))], storage: storage)  // recorded, all shown
        #expect(plain.written == ["log:3", "log:4"])

        let second = await run([("log", BatchesSource(batches: [["1", "5"], ["4", "6"]]))], storage: storage, newOnly: true)
        #expect(second.written == ["log:5", "log:6"])
        #expect(second.outcome.report.sources[0].itemCount == 2)
        #expect(second.outcome.notes.isEmpty)
    }

    @Test("many small sources' ids, gathered into shared chunks, are all recorded in each source's own history")
    func historyOfManySources() async {
        let storage = RunStorage(store: .sqlite(database))
        let count = HistoryWriter.maxGatheredSources * 2 + 3  // two full gatherings and a rest the run's end flushes
        let ids = (0..<count).map { "feed\($0)" }
        let plain = await run(ids.map { ($0, BatchesSource(batches: [["a", "b"]])) }, storage: storage)
        #expect(plain.written.count == count * 2)
        #expect(plain.outcome.notes.isEmpty)

        let second = await run(ids.map { ($0, BatchesSource(batches: [["a", "b", "c"]])) }, storage: storage, newOnly: true)
        #expect(second.written == ids.map { "\($0):c" }, "each source's a and b were recorded, under its own id")
        #expect(second.outcome.notes.isEmpty, "no source had a first run")
    }

    @Test("a large source read again is known by its chunks' digests; a run that changes a chunk still records every new id")
    func largeSourceReadAgain() async {
        let storage = RunStorage(store: .sqlite(database))
        let ids = (0..<40_000).map { "row\($0)" }
        let batches = stride(from: 0, to: ids.count, by: 1_000).map { Array(ids[$0..<$0 + 1_000]) }
        for _ in 0..<2 {  // the second run's chunks are all known
            let plain = await run([("big", BatchesSource(batches: batches))], storage: storage)
            #expect(plain.written.count == ids.count)
            #expect(plain.outcome.notes.isEmpty)
        }
        var changed = batches
        changed[20].append("new-middle")  // in the second chunk of `HistoryWriter.chunkSize` ids
        changed[39].append("new-last")  // in the rest the run's end records
        _ = await run([("big", BatchesSource(batches: changed))], storage: storage)
        let next = await run([("big", BatchesSource(batches: changed + [["new-next"]]))], storage: storage, newOnly: true)
        #expect(next.written == ["big:new-next"])
        #expect(next.outcome.notes.isEmpty)
    }

    @Test("a source answered through the response cache is held, then served from its last good copy when it fails")
    func cachedSourceHeld() async throws {
        let clock = RunClock()
        let good = RunStorage(store: .sqlite(database), now: { clock.now })
        let goodPolicy = try #require(good.services(for: manifestSource("api", ttl: 300), identity: .testing("api")).responseCache)
        let firstRun = await run(
            [("api", BatchesSource(batches: [["p1"], ["p2"]], beforeFirstBatch: { goodPolicy.activity.record(.miss) }))],
            storage: good, registered: ["api"])
        #expect(firstRun.written == ["api:p1", "api:p2"])

        clock.advance(60)
        let failing = RunStorage(store: .sqlite(database), now: { clock.now })
        let policy = try #require(failing.services(for: manifestSource("api", ttl: 300), identity: .testing("api")).responseCache)
        struct Failing: ItemSource {
            let policy: ResponseCachePolicy
            func load(_ context: LoadContext, into receiver: ItemReceiver) {
                policy.activity.record(.miss)
                receiver.emit([Item(kind: .record, id: "partial", title: "partial")])
                receiver.fail(SourceError(.network, "connection refused"))
            }
        }
        let secondRun = await run([("api", Failing(policy: policy))], storage: failing, registered: ["api"])
        // The partial page never went out: the last good copy replaced it.
        #expect(secondRun.written == ["api:p1", "api:p2"])
        #expect(secondRun.outcome.report.sources[0].status == .stale)
        #expect(secondRun.outcome.report.sources[0].itemCount == 2)
    }
}
