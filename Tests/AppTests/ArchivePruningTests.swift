@testable import App
import Domain
import Foundation
import ProviderTesting
import Testing

@Suite("The archive pruned in the background by long-running front ends")
struct ArchivePruningTests {
    @Test("a pass keeps the manifest's retention, runs off the caller's thread, and is not due again for hours")
    func prunesOncePerInterval() async throws {
        let root = try ScratchDirectory.make("archive-pruning")
        try #"{"id": "a", "title": "one"}"#.appending("\n").write(to: root.appendingPathComponent("a.ndjson"), atomically: true, encoding: .utf8)
        try """
            { "version": 1, "defaults": { "retention": { "maxItemsPerSource": 2 } },
              "sources": [ { "id": "notes", "provider": "files", "options": { "paths": ["a.ndjson"] } } ] }
            """.write(to: root.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        let container = try AppDIContainer.load(
            manifestAt: root.appendingPathComponent("manifest.json"), registry: .builtIn,
            environment: ["AGGREGATE_HOME": root.appendingPathComponent("home").path])
        let archive = try #require(container.store.open().store?.archive)
        let history = try #require(container.store.open().store?.history)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try await blocking {
            try history.markSeen([SeenBatch(source: SourceIdentity(id: "notes", fingerprint: "f"), itemIDs: ["1", "2", "3", "4", "5"])], at: start)
        }

        let pruning = ArchivePruning()
        let removed = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            let started = pruning.afterRun(in: container, now: start) { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            }
            #expect(started)
        }
        #expect(removed == 3)
        #expect(try await blocking { try archive.stats().map(\.items) } == [2])
        #expect(!pruning.afterRun(in: container, now: start.addingTimeInterval(ArchivePruning.interval - 1)), "not due yet")
        let again = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            #expect(pruning.afterRun(in: container, now: start.addingTimeInterval(ArchivePruning.interval)) { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            })
        }
        #expect(again == 0)
    }
}
