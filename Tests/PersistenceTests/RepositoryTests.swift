import Domain
import Foundation
import Persistence
import ProviderKit
import Testing

@Suite("Last good copies, item history and maintenance")
struct RepositoryTests {
    static let items = [
        Item(kind: .weather, id: "Seoul", title: "Seoul", subtitle: "Clouds, 21.3 °C", url: URL(string: "https://x/s"),
             date: Date(timeIntervalSince1970: 1_800_000_000.5), fields: ["temperature": 21.3, "tags": ["a"], "none": nil]),
        Item(kind: .record, id: "2", title: "Plain"),
    ]

    @Test("a last good copy round-trips every item field, per source and variant")
    func snapshots() throws {
        let database = try TemporaryDirectory().open()
        let repository = SQLiteSourceSnapshotRepository(database: database)
        let saved = SourceSnapshot(sourceID: "weather", items: Self.items, savedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try repository.saveLastGood(saved)
        try repository.saveLastGood(SourceSnapshot(sourceID: "weather", variant: "dune", items: [], savedAt: Date()))
        #expect(try repository.lastGood(sourceID: "weather", variant: "") == saved)
        #expect(try repository.lastGood(sourceID: "weather", variant: "dune")?.items == [])
        #expect(try repository.lastGood(sourceID: "other", variant: "") == nil)
    }

    @Test("history: the first run is all new and says so; later runs report only unseen ids, per source")
    func history() throws {
        let database = try TemporaryDirectory().open()
        let history = SQLiteSeenItemsRepository(database: database)
        let first = try history.recordSeen(sourceID: "feed", itemIDs: ["a", "b"], at: Date())
        #expect(first == SeenItems(unseen: ["a", "b"], isFirstRun: true))
        let second = try history.recordSeen(sourceID: "feed", itemIDs: ["b", "c"], at: Date())
        #expect(second == SeenItems(unseen: ["c"], isFirstRun: false))
        let other = try history.recordSeen(sourceID: "other", itemIDs: ["a"], at: Date())
        #expect(other == SeenItems(unseen: ["a"], isFirstRun: true), "history is per source")
    }

    @Test("stats count each source's responses, copies and history; clear removes one source or all")
    func maintenance() throws {
        let database = try TemporaryDirectory().open()
        let store = SQLiteResponseCacheStore(database: database)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for (key, source, fresh) in [("k1", "a", true), ("k2", "a", false), ("k3", "b", true)] {
            try store.store(StoredResponse(status: 200, headers: [], body: Data(repeating: 1, count: 100), storedAt: now,
                                           expiresAt: now.addingTimeInterval(fresh ? 60 : -1)), forKey: key, sourceID: source)
        }
        try SQLiteSourceSnapshotRepository(database: database).saveLastGood(SourceSnapshot(sourceID: "a", items: Self.items, savedAt: now))
        _ = try SQLiteSeenItemsRepository(database: database).recordSeen(sourceID: "c", itemIDs: ["1", "2", "3"], at: now)
        let maintenance = StoreMaintenance(database: database)

        let stats = try maintenance.stats(now: now)
        #expect(stats.map(\.sourceID) == ["a", "b", "c"])
        #expect(stats[0].responses == 2 && stats[0].freshResponses == 1 && stats[0].bytes == 2 * 102)
        #expect(stats[0].snapshotItems == 2)
        #expect(stats[2].historyItems == 3 && stats[2].responses == 0)
        #expect(try maintenance.stats(sourceID: "b", now: now).map(\.sourceID) == ["b"])

        let removed = try maintenance.clearCache(sourceID: "a")
        #expect(removed.responses == 2 && removed.snapshots == 1)
        #expect(try store.response(forKey: "k3") != nil, "other sources keep theirs")
        #expect(try maintenance.clearHistory().historyItems == 3)
        #expect(try maintenance.clearCache().responses == 1)
        #expect(try maintenance.stats(now: now).isEmpty)
    }
}
