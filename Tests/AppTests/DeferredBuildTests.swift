@testable import App
@testable import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Synchronization
import Testing

/// A provider whose sources note, when they load, how many sources were built and how many finished by then.
private struct AdmissionWitness: Provider {
    struct Tally { var built = 0, finished = 0, mostBuiltUnfinished = 0 }
    final class Counts: Sendable {
        let tally = Mutex(Tally())
    }
    let counts: Counts

    var name: String { "witness" }
    var summary: String { "Counts builds." }
    var options: [OptionSpec] { [] }

    func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        counts.tally.withLock { $0.built += 1 }
        return Loaded(counts: counts)
    }

    private struct Loaded: ItemSource {
        let counts: Counts
        func load(_ context: LoadContext, into receiver: ItemReceiver) {
            counts.tally.withLock { $0.mostBuiltUnfinished = max($0.mostBuiltUnfinished, $0.built - $0.finished) }
            receiver.emit([Item(kind: .record, id: UUID().uuidString, title: "x")])
            counts.tally.withLock { $0.finished += 1 }
            receiver.finish()
        }
    }
}

/// A provider whose sources named `hang…` load until their run is cancelled and the others finish at once; each load
/// is counted, and each count is an event a test can wait on.
private struct HangingWitness: Provider {
    final class Loads: Sendable {
        private let count = Mutex(0)
        private let added = AsyncStream<Int>.makeStream()
        func add() { added.continuation.yield(count.withLock { $0 += 1; return $0 }) }
        var value: Int { count.withLock { $0 } }
        func reached(_ target: Int) async {
            guard value < target else { return }
            for await value in added.stream where value >= target { return }
        }
    }
    let loads: Loads

    var name: String { "hanging" }
    var summary: String { "Hangs or not." }
    var options: [OptionSpec] { [] }

    func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        Loaded(loads: loads, hangs: configuration.id.hasPrefix("hang"))
    }

    private struct Loaded: ItemSource {
        let loads: Loads
        let hangs: Bool
        func load(_ context: LoadContext, into receiver: ItemReceiver) {
            loads.add()
            if hangs {
                context.cancellation.onCancel { receiver.finish() }
                return
            }
            receiver.emit([Item(kind: .record, id: UUID().uuidString, title: "x")])
            receiver.finish()
        }
    }
}

@Suite("Sources built when the engine admits them")
struct DeferredBuildTests {
    /// A container of a manifest of `sources` (JSON objects) with `maxConcurrentRequests` 1, so 4 sources load at
    /// once, served by `provider` alone.
    private static func container(_ name: String, sources: [String], provider: any Provider) throws -> AppDIContainer {
        let directory = ScratchDirectory.path(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("manifest.json")
        let manifest = #"{"version": 1, "defaults": {"maxConcurrentRequests": 1}, "sources": [\#(sources.joined(separator: ","))]}"#
        try Data(manifest.utf8).write(to: url)
        return try AppDIContainer.load(
            manifestAt: url, registry: ProviderRegistry([provider]),
            environment: ["AGGREGATE_HOME": directory.appendingPathComponent("home").path], selection: nil)
    }

    @Test("a run holds at most its admission limit of built, unfinished sources; every source runs")
    func builtWhenAdmitted() async throws {
        let counts = AdmissionWitness.Counts()
        let container = try Self.container(
            "aggregate-deferred", sources: (0..<40).map { #"{"id": "s\#($0)", "provider": "witness"}"# },
            provider: AdmissionWitness(counts: counts))
        counts.tally.withLock { $0 = AdmissionWitness.Tally() }  // validation built each once

        let outcome = try await container.engine.run(RunRequest())

        #expect(outcome.report.sources.allSatisfy { $0.status == .ok })
        let seen = counts.tally.withLock { $0 }
        #expect(seen.built == 40 && seen.finished == 40)
        // 4 × maxConcurrentRequests are admitted at once; built at planning, all 40 would be.
        #expect(seen.mostBuiltUnfinished <= 4, "\(seen.mostBuiltUnfinished) sources built and not finished at once")
    }

    @Test("runs of one container share its limit: a watch's overlapping cycles load no more sources at once than one run")
    func limitSharedByRuns() async throws {
        let ids = (0..<4).map { "hang\($0)" } + ["later0", "later1"]
        let loads = HangingWitness.Loads()
        let container = try Self.container(
            "aggregate-admission-shared",
            sources: ids.map { #"{"id": "\#($0)", "provider": "hanging", "timeoutSeconds": 3600}"# },
            provider: HangingWitness(loads: loads))

        let cancellation = CancellationToken()
        let first = AsyncStream<RunOutcome>.makeStream()
        try container.engine.run(RunRequest(selection: Array(ids.prefix(4))), cancellation: cancellation) {
            first.continuation.yield($0)
        }
        await loads.reached(4)  // 4 × maxConcurrentRequests: every place is taken
        let second = AsyncStream<RunOutcome>.makeStream()
        try container.engine.run(RunRequest(selection: ["later0", "later1"])) { second.continuation.yield($0) }
        #expect(container.loadingSlots.waiting == 2, "the second run's sources wait for the first run's places")
        #expect(loads.value == 4)

        cancellation.cancel()
        var firstOutcomes = first.stream.makeAsyncIterator()
        let hung = await firstOutcomes.next()
        #expect(hung?.report.sources.allSatisfy { $0.status == .timeout } == true)
        var secondOutcomes = second.stream.makeAsyncIterator()
        let later = await secondOutcomes.next()
        #expect(later?.report.sources.map(\.status) == [.ok, .ok])
    }
}
