@testable import App
import Domain
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

@Suite("Sources built when the engine admits them")
struct DeferredBuildTests {
    @Test("a run holds at most its admission limit of built, unfinished sources; every source runs")
    func builtWhenAdmitted() async throws {
        let directory = ScratchDirectory.path("aggregate-deferred")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let sources = (0..<40).map { #"{"id": "s\#($0)", "provider": "witness"}"# }.joined(separator: ",")
        let url = directory.appendingPathComponent("manifest.json")
        try Data(#"{"version": 1, "defaults": {"maxConcurrentRequests": 1}, "sources": [\#(sources)]}"#.utf8).write(to: url)
        let counts = AdmissionWitness.Counts()
        let container = try AppDIContainer.load(
            manifestAt: url, registry: ProviderRegistry([AdmissionWitness(counts: counts)]),
            environment: ["AGGREGATE_HOME": directory.appendingPathComponent("home").path], selection: nil)
        counts.tally.withLock { $0 = AdmissionWitness.Tally() }  // validation built each once

        let outcome = try await container.engine.run(RunRequest())

        #expect(outcome.report.sources.allSatisfy { $0.status == .ok })
        let seen = counts.tally.withLock { $0 }
        #expect(seen.built == 40 && seen.finished == 40)
        // 4 × maxConcurrentRequests are admitted at once; built at planning, all 40 would be.
        #expect(seen.mostBuiltUnfinished <= 4, "\(seen.mostBuiltUnfinished) sources built and not finished at once")
    }
}
