@testable import App
import Domain
import Foundation
import ProviderTesting
import Testing

@Suite("The archive kept up in the background by long-running front ends")
struct ArchiveUpkeepTests {
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

        let upkeep = ArchiveUpkeep()
        #expect(try await Self.pass(upkeep, container, at: start) == .init(written: 0, pruned: 3))
        #expect(try await blocking { try archive.stats().map(\.items) } == [2])
        #expect(try await Self.pass(upkeep, container, at: start.addingTimeInterval(ArchiveUpkeep.pruneInterval - 1))
            == .init(written: 0, pruned: nil), "no prune due yet")
        #expect(try await Self.pass(upkeep, container, at: start.addingTimeInterval(ArchiveUpkeep.pruneInterval))
            == .init(written: 0, pruned: 0))
    }

    @Test("a pass writes what a run staged: a large batch enters the archive staged, and the pass indexes it")
    func writesStaged() async throws {
        let root = try ScratchDirectory.make("archive-upkeep")
        try #"{"version": 1, "sources": []}"#.write(to: root.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        let container = try AppDIContainer.load(
            manifestAt: root.appendingPathComponent("manifest.json"), registry: .builtIn,
            environment: ["AGGREGATE_HOME": root.appendingPathComponent("home").path])
        let history = try #require(container.store.open().store?.history)
        let ids = (0..<3_000).map { "item \($0)" }
        try await blocking {
            try history.markSeen([SeenBatch(source: SourceIdentity(id: "log", fingerprint: "f"), itemIDs: ids)], at: Date())
        }
        let upkeep = ArchiveUpkeep()
        #expect(try await Self.pass(upkeep, container, at: Date()).written == 3_000)
        #expect(try await Self.pass(upkeep, container, at: Date()).written == 0, "nothing staged is left")
    }

    /// Runs one pass of `upkeep` and waits for what it did.
    private static func pass(_ upkeep: ArchiveUpkeep, _ container: AppDIContainer, at now: Date) async throws -> ArchiveUpkeep.Pass {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ArchiveUpkeep.Pass, any Error>) in
            let started = upkeep.afterRun(in: container, now: now) { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            }
            #expect(started, "no pass was running")
        }
    }
}
