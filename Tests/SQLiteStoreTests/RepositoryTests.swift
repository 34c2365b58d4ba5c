import Domain
import Foundation
import ProviderKit
import ProviderTesting
import SQLiteStore
import Testing

@Suite("Last good copies, item history and maintenance")
struct RepositoryTests {
    static let items = [
        Item(kind: .weather, id: "Seoul", title: "Seoul", subtitle: "Clouds, 21.3 °C", url: URL(string: "https://x/s"),
             date: Date(timeIntervalSince1970: 1_800_000_000.5), fields: ["temperature": 21.3, "tags": ["a"], "none": nil]),
        Item(kind: .record, id: "2", title: "Plain"),
    ]

    @Test("a last good copy round-trips every item field, per source and variant")
    func snapshots() async throws {
        let saved = SourceSnapshot(source: .testing("weather"), items: Self.items, savedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let (plain, dune, other) = try await blocking {
            let repository = SQLiteSourceSnapshotRepository(database: try ScratchDirectory.Folder("aggregate-store").open())
            try repository.saveLastGood(saved)
            try repository.saveLastGood(SourceSnapshot(source: .testing("weather"), variant: "dune", items: [], savedAt: Date()))
            return (try repository.lastGood(of: .testing("weather"), variant: ""),
                    try repository.lastGood(of: .testing("weather"), variant: "dune"),
                    try repository.lastGood(of: .testing("other"), variant: ""))
        }
        #expect(plain == saved)
        #expect(dune?.items == [])
        #expect(other == nil)
    }

    @Test("history: the first run is all new and says so; later runs report only unseen ids, per source")
    func history() async throws {
        let (first, second, other) = try await blocking {
            let history = SQLiteSeenItemsRepository(database: try ScratchDirectory.Folder("aggregate-store").open())
            return (try history.recordSeen(by: .testing("feed"), itemIDs: ["a", "b"], at: Date()),
                    try history.recordSeen(by: .testing("feed"), itemIDs: ["b", "c"], at: Date()),
                    try history.recordSeen(by: .testing("other"), itemIDs: ["a"], at: Date()))
        }
        #expect(first == SeenItems(unseen: ["a", "b"], isFirstRun: true))
        #expect(second == SeenItems(unseen: ["c"], isFirstRun: false))
        #expect(other == SeenItems(unseen: ["a"], isFirstRun: true), "history is per source")
    }

    @Test("history: ids marked seen in bulk (odd ones included, several sources at once) count as seen by the next run")
    func markSeen() async throws {
        let ids = (0..<5000).map { "id-\($0)" } + ["quote\"d", "back\\slash", "日本", ""]
        let next = try await blocking {
            let history = SQLiteSeenItemsRepository(database: try ScratchDirectory.Folder("aggregate-store").open())
            try history.markSeen([SeenBatch(source: .testing("log"), itemIDs: ids)], at: Date())
            // A repeat is ignored; several sources go in one call, each under its own key, an empty one skipped.
            try history.markSeen([SeenBatch(source: .testing("log"), itemIDs: ["id-1"]),
                                  SeenBatch(source: .testing("other"), itemIDs: ["id-1", "o", "o"]),
                                  SeenBatch(source: .testing("empty"), itemIDs: [])], at: Date())
            return (try history.recordSeen(by: .testing("log"), itemIDs: ids + ["fresh", "o"], at: Date()),
                    try history.recordSeen(by: .testing("other"), itemIDs: ["id-1", "id-2", "o"], at: Date()),
                    try history.recordSeen(by: .testing("empty"), itemIDs: ["a"], at: Date()))
        }
        #expect(next.0 == SeenItems(unseen: ["fresh", "o"], isFirstRun: false))
        #expect(next.1 == SeenItems(unseen: ["id-2"], isFirstRun: false))
        #expect(next.2 == SeenItems(unseen: ["a"], isFirstRun: true), "an empty batch records no history")
    }

    @Test("stats count each source's responses, copies and history; clear removes one source or all")
    func maintenance() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        // Every step is SQLite, so it runs on a thread of its own; the values come back for the expectations.
        let (stats, onlyB, removedA, k3Kept, historyRemoved, restRemoved, after) = try await blocking {
            let database = try ScratchDirectory.Folder("aggregate-store").open()
            let store = SQLiteResponseCacheStore(database: database)
            for (key, source, fresh) in [("k1", "a", true), ("k2", "a", false), ("k3", "b", true)] {
                try store.store(StoredResponse(status: 200, headers: [], body: Data(repeating: 1, count: 100), storedAt: now,
                                               expiresAt: now.addingTimeInterval(fresh ? 60 : -1)), forKey: key, sourceID: source)
            }
            try SQLiteSourceSnapshotRepository(database: database)
                .saveLastGood(SourceSnapshot(source: .testing("a"), items: Self.items, savedAt: now))
            _ = try SQLiteSeenItemsRepository(database: database).recordSeen(by: .testing("c"), itemIDs: ["1", "2", "3"], at: now)
            let maintenance = SQLiteStoreMaintenance(database: database)
            return (try maintenance.stats(now: now), try maintenance.stats(sourceID: "b", now: now),
                    try maintenance.clearCache(sourceID: "a"), try store.response(forKey: "k3") != nil,
                    try maintenance.clearHistory(), try maintenance.clearCache(), try maintenance.stats(now: now))
        }
        #expect(stats.map(\.sourceID) == ["a", "b", "c"])
        #expect(stats[0].responses == 2 && stats[0].freshResponses == 1 && stats[0].bytes == 2 * 102)
        #expect(stats[0].snapshotItems == 2)
        #expect(stats[2].historyItems == 3 && stats[2].responses == 0)
        #expect(onlyB.map(\.sourceID) == ["b"])
        #expect(removedA.responses == 2 && removedA.snapshots == 1)
        #expect(k3Kept, "other sources keep theirs")
        #expect(historyRemoved.historyItems == 3)
        #expect(restRemoved.responses == 1)
        #expect(after.isEmpty)
    }
}
