import Domain
import Foundation
import ProviderTesting
import SQLiteStore
import Testing

@Suite("The sinks' outbox in SQLite")
struct SinkOutboxRepositoryTests {
    static func items(_ ids: [String], source: String = "news") -> [SinkItem] {
        ids.map { SinkItem(source: source, item: Item(kind: .record, id: $0, title: "T \($0)")) }
    }

    @Test("only items a sink never saw are queued, in order, in batches; each sink has its own history")
    func enqueue() async throws {
        let (first, second, other) = try await blocking {
            let outbox = SQLiteSinkOutboxRepository(database: try ScratchDirectory.Folder("aggregate-store").open())
            let first = try outbox.enqueue(sink: "hook", items: Self.items(["a", "b", "c"]), batchSize: 2, at: Date())
            let second = try outbox.enqueue(
                sink: "hook", items: Self.items(["b", "d", "d"]) + Self.items(["b"], source: "blog"), batchSize: 2, at: Date())
            let other = try outbox.enqueue(sink: "mail", items: Self.items(["a"]), batchSize: 2, at: Date())
            return (first, second, other)
        }
        #expect(first.map(\.itemCount) == [2, 1])
        #expect(String(decoding: first[0].itemLines, as: UTF8.self).split(separator: "\n").count == 2)
        #expect(second.map(\.itemCount) == [2], "d once, and blog's b (another source's item) is new")
        #expect(String(decoding: second[0].itemLines, as: UTF8.self).contains(#""source":"blog""#))
        #expect(other.count == 1)
    }

    @Test("pending oldest first; delivered never again; a Retry-After holds back the later ones; failed until retried")
    func lifecycle() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let result = try await blocking {
            let outbox = SQLiteSinkOutboxRepository(database: try ScratchDirectory.Folder("aggregate-store").open())
            let queued = try outbox.enqueue(sink: "hook", items: Self.items(["a", "b", "c"]), batchSize: 1, at: now)
            try outbox.markDelivered(queued[0].id, at: now)
            try outbox.markFailed(queued[1].id, error: "HTTP 503", permanently: false, notBefore: now + 60, at: now)
            let heldBack = try outbox.pending(sink: "hook", now: now)
            let later = try outbox.pending(sink: "hook", now: now + 61).map(\.id)
            try outbox.markFailed(queued[1].id, error: "HTTP 403", permanently: true, notBefore: nil, at: now)
            let afterFailure = try outbox.pending(sink: "hook", now: now + 61).map(\.id)
            let counts = try outbox.counts()
            let retried = try outbox.retry(queued[1].id)
            let again = try outbox.pending(sink: "hook", now: now).map(\.id)
            let dropped = try outbox.drop("hook")
            return (queued.map(\.id), heldBack, later, afterFailure, counts, retried, again, dropped, try outbox.counts())
        }
        let ids = result.0
        #expect(result.1.isEmpty, "the delivery put off comes first, so nothing is due")
        #expect(result.2 == [ids[1], ids[2]])
        #expect(result.3 == [ids[2]])
        #expect(result.4 == [SinkDeliveryCounts(sink: "hook", pending: 1, failed: 1, delivered: 1, oldestPending: now)])
        #expect(result.5 == 1)
        #expect(result.6 == [ids[1], ids[2]])
        #expect(result.7 == 2)
        #expect(result.8 == [SinkDeliveryCounts(sink: "hook", pending: 0, failed: 0, delivered: 1)])
    }
}
