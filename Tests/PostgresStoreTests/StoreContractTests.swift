import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Testing

/// The store contract: every test runs against SQLite and PostgreSQL alike, so both stores behave the same.
@Suite("Store contract (SQLite and PostgreSQL)")
struct StoreContractTests {
    @Test("PostgreSQL is configured for these tests", .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
    func postgresConfigured() throws {
        try #require(TestPostgres.serverURL != nil, "CI=true needs AGGREGATE_TEST_POSTGRES_URL: .ci/run starts a cluster")
    }

    @Test("a response is stored, read back whole, refreshed, replaced and removed", arguments: StoreKind.available)
    func responses(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let stored = StoredResponse(
            status: 200, headers: [.init(name: "ETag", value: "\"v1\"")], body: Data([0, 1, 2, 255]),
            storedAt: Date(timeIntervalSince1970: 1_700_000_000.25), expiresAt: Date(timeIntervalSince1970: 1_700_000_300.5))
        let (first, refreshed, replaced, removed, missing) = try await blocking {
            try store.responses.store(stored, forKey: "k1", sourceID: "news")
            let first = try store.responses.response(forKey: "k1")
            try store.responses.refresh(
                key: "k1", storedAt: Date(timeIntervalSince1970: 1_700_000_400), expiresAt: Date(timeIntervalSince1970: 1_700_000_700))
            let refreshed = try store.responses.response(forKey: "k1")
            var newer = stored
            newer.body = Data("new".utf8)
            try store.responses.store(newer, forKey: "k1", sourceID: "news")
            let replaced = try store.responses.response(forKey: "k1")
            try store.responses.removeResponse(forKey: "k1")
            return (first, refreshed, replaced, try store.responses.response(forKey: "k1"), try store.responses.response(forKey: "k2"))
        }
        #expect(first == stored)
        #expect(refreshed?.storedAt == Date(timeIntervalSince1970: 1_700_000_400))
        #expect(refreshed?.expiresAt == Date(timeIntervalSince1970: 1_700_000_700))
        #expect(refreshed?.body == stored.body)
        #expect(replaced?.body == Data("new".utf8))
        #expect(removed == nil)
        #expect(missing == nil)
    }

    @Test("the last good copy is kept per source identity and variant, and replaced", arguments: StoreKind.available)
    func snapshots(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        let item = Item(kind: .record, id: "1", title: "One", subtitle: "sub", url: URL(string: "https://example.org/1"),
                        date: Date(timeIntervalSince1970: 1_600_000_000.125), fields: ["n": .int(3), "s": .string("x")])
        let news = SourceIdentity.testing("news")
        let (copy, other, variant, replaced) = try await blocking {
            try store.snapshots.saveLastGood(SourceSnapshot(source: news, items: [item], savedAt: date))
            try store.snapshots.saveLastGood(SourceSnapshot(source: news, variant: "q", items: [], savedAt: date))
            let copy = try store.snapshots.lastGood(of: news, variant: "")
            let other = try store.snapshots.lastGood(of: SourceIdentity(id: "news", fingerprint: "other"), variant: "")
            let variant = try store.snapshots.lastGood(of: news, variant: "q")
            try store.snapshots.saveLastGood(SourceSnapshot(source: news, items: [], savedAt: date.addingTimeInterval(60)))
            return (copy, other, variant, try store.snapshots.lastGood(of: news, variant: ""))
        }
        #expect(copy?.items == [item])
        #expect(copy?.savedAt == date)
        #expect(other == nil, "another fingerprint's copy is never served")
        #expect(variant?.items == [])
        #expect(replaced?.items == [] && replaced?.savedAt == date.addingTimeInterval(60))
    }

    @Test("the history tells a first run, then only the ids never seen; identities are apart", arguments: StoreKind.available)
    func history(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let news = SourceIdentity.testing("news")
        let (first, second, marked, other, weatherSeen) = try await blocking {
            let first = try store.history.recordSeen(by: news, itemIDs: ["a", "b", "b"], at: Date())
            let second = try store.history.recordSeen(by: news, itemIDs: ["b", "c"], at: Date())
            let weather = SourceIdentity.testing("weather")
            try store.history.markSeen([SeenBatch(source: news, itemIDs: ["d", "d"]),
                                        SeenBatch(source: weather, itemIDs: ["w"])], at: Date())
            let marked = try store.history.recordSeen(by: news, itemIDs: ["d", "e", "w"], at: Date())
            let weatherSeen = try store.history.recordSeen(by: weather, itemIDs: ["w", "d"], at: Date())
            let other = try store.history.recordSeen(by: SourceIdentity(id: "news", fingerprint: "x"), itemIDs: ["a"], at: Date())
            return (first, second, marked, other, weatherSeen)
        }
        #expect(weatherSeen == SeenItems(unseen: ["d"], isFirstRun: false), "one call marks each source apart")
        #expect(first == SeenItems(unseen: ["a", "b"], isFirstRun: true))
        #expect(second == SeenItems(unseen: ["c"], isFirstRun: false))
        #expect(marked.unseen == ["e", "w"])
        #expect(other == SeenItems(unseen: ["a"], isFirstRun: true))
    }

    @Test("recent queries: latest first, one per spelling ignoring case, at most 20", arguments: StoreKind.available)
    func recentQueries(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let (recent, all, any) = try await blocking {
            let queries = store.queries(.testing("movies"))
            try queries.saveRecentQuery("Alien")
            try queries.saveRecentQuery(" matrix ")
            try queries.saveRecentQuery("ALIEN")
            let recent = try queries.recentQueries(maxCount: 5)
            for index in 0..<25 { try queries.saveRecentQuery("q\(index)") }
            return (recent, try queries.recentQueries(maxCount: 100), try store.queriesOfAnyConfiguration("movies", 2))
        }
        #expect(recent == ["ALIEN", "matrix"])
        #expect(all.count == 20)
        #expect(all.first == "q24")
        #expect(any == ["q24", "q23"])
    }

    @Test("the outbox queues only what a sink never saw, in batches; each sink has its own history", arguments: StoreKind.available)
    func enqueue(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let (first, second, other) = try await blocking {
            let first = try store.outbox.enqueue(sink: "hook", items: sinkItems(["a", "b", "c"]), batchSize: 2, at: Date())
            let second = try store.outbox.enqueue(
                sink: "hook", items: sinkItems(["b", "d", "d"]) + sinkItems(["b"], source: "blog"), batchSize: 2, at: Date())
            let other = try store.outbox.enqueue(sink: "mail", items: sinkItems(["a"]), batchSize: 2, at: Date())
            return (first, second, other)
        }
        #expect(first.map(\.itemCount) == [2, 1])
        #expect(String(decoding: first[0].itemLines, as: UTF8.self).split(separator: "\n").count == 2)
        #expect(second.map(\.itemCount) == [2])
        #expect(String(decoding: second[0].itemLines, as: UTF8.self).contains(#""source":"blog""#))
        #expect(other.count == 1)
    }

    @Test("pending oldest first; delivered never again; a Retry-After holds back later ones; retry and drop", arguments: StoreKind.available)
    func deliveries(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let now = Date()
        let result = try await blocking {
            let queued = try store.outbox.enqueue(sink: "hook", items: sinkItems(["a", "b", "c"]), batchSize: 1, at: now)
            let all = try store.outbox.pending(sink: "hook", now: now).map(\.id)
            try store.outbox.markDelivered(queued[0].id, at: now)
            try store.outbox.markFailed(queued[1].id, error: "503", permanently: false, notBefore: now.addingTimeInterval(60), at: now)
            let heldBack = try store.outbox.pending(sink: "hook", now: now).map(\.id)
            let later = try store.outbox.pending(sink: "hook", now: now.addingTimeInterval(61)).map(\.id)
            try store.outbox.markFailed(queued[2].id, error: "403", permanently: true, notBefore: nil, at: now)
            let counts = try store.outbox.counts()
            let undelivered = try store.outbox.undelivered().map(\.state)
            let matching = try store.outbox.undelivered(matching: queued[2].id).map(\.lastError)
            let retried = try store.outbox.retry("hook")
            let afterRetry = try store.outbox.pending(sink: "hook", now: now).map(\.id)
            let dropped = try store.outbox.drop(queued[1].id)
            let afterDrop = try store.outbox.pending(sink: "hook", now: now).map(\.id)
            for id in afterDrop { try store.outbox.markDelivered(id, at: now) }
            return (queued.map(\.id), all, heldBack, later, counts, undelivered, matching, retried, afterRetry, dropped, afterDrop)
        }
        let (ids, all, heldBack, later, counts, undelivered, matching, retried, afterRetry, dropped, afterDrop) = result
        #expect(all == ids)
        #expect(heldBack == [], "the put-off delivery holds back the one after it")
        #expect(later == [ids[1], ids[2]])
        #expect(counts == [SinkDeliveryCounts(sink: "hook", pending: 1, failed: 1, delivered: 1, oldestPending: counts.first?.oldestPending)])
        #expect(counts.first?.oldestPending != nil)
        #expect(undelivered == [.pending, .failed])
        #expect(matching == ["403"])
        #expect(retried == 2)
        #expect(afterRetry == [ids[1], ids[2]])
        #expect(dropped == 1)
        #expect(afterDrop == [ids[2]])
    }

    @Test("8 connections record the same items at once: each id is new for exactly one", arguments: StoreKind.available)
    func announceOnce(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let ids = (0..<200).map { "item-\($0)" }
        let news = SourceIdentity.testing("news")
        let unseen = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                let other = try await blocking { try store.reopen() }
                group.addTask {
                    try await blocking { Array(try other.history.recordSeen(by: news, itemIDs: ids.shuffled(), at: Date()).unseen) }
                }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(unseen.count == ids.count)
        #expect(Set(unseen) == Set(ids))
    }

    @Test("8 connections queue the same items for a sink at once: each item is queued once", arguments: StoreKind.available)
    func queueOnce(kind: StoreKind) async throws {
        let store = try await StoreUnderTest.make(kind)
        let items = sinkItems((0..<100).map { "item-\($0)" })
        let queued = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                let other = try await blocking { try store.reopen() }
                group.addTask {
                    try await blocking {
                        try other.outbox.enqueue(sink: "hook", items: items, batchSize: 10, at: Date()).reduce(0) { $0 + $1.itemCount }
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(queued == items.count)
    }
}
