import Domain
import Foundation
import Synchronization
import Testing

/// An outbox in memory: every delivery's state, in queue order.
final class MemoryOutbox: SinkOutboxRepository {
    struct Entry {
        var delivery: SinkDelivery
        var state: SinkDeliveryState = .pending
        var notBefore: Date?
        var errors: [String] = []
    }

    let entries = Mutex<[Entry]>([])
    private let seen = Mutex<Set<String>>([])

    func enqueue(sink: String, items: [SinkItem], batchSize: Int, at date: Date) throws(SourceError) -> [SinkDelivery] {
        // Ids number the items queued before: unique across passes.
        let (fresh, before) = seen.withLock { seen in
            let before = seen.count
            return (items.filter { seen.insert("\($0.source)/\($0.item.id)").inserted }, before)
        }
        let deliveries = stride(from: 0, to: fresh.count, by: batchSize).map { start in
            let batch = fresh[start..<min(fresh.count, start + batchSize)]
            return SinkDelivery(
                id: "d\(before + start)", sink: sink, itemLines: Data(batch.map { $0.item.id + "\n" }.joined().utf8),
                itemCount: batch.count, createdAt: date)
        }
        entries.withLock { $0 += deliveries.map { Entry(delivery: $0) } }
        return deliveries
    }

    func pending(sink: String, now: Date) throws(SourceError) -> [SinkDelivery] {
        entries.withLock { $0.filter { $0.state == .pending && ($0.notBefore ?? now) <= now }.map(\.delivery) }
    }

    func markDelivered(_ deliveryID: String, at date: Date) throws(SourceError) {
        update(deliveryID) { $0.state = .delivered }
    }

    func markFailed(_ deliveryID: String, error: String, permanently: Bool, notBefore: Date?, at date: Date) throws(SourceError) {
        update(deliveryID) { entry in
            entry.errors.append(error)
            entry.notBefore = notBefore
            if permanently { entry.state = .failed }
        }
    }

    func counts() throws(SourceError) -> [SinkDeliveryCounts] {
        entries.withLock { entries in
            [SinkDeliveryCounts(
                sink: "hook", pending: entries.filter { $0.state == .pending }.count,
                failed: entries.filter { $0.state == .failed }.count, delivered: entries.filter { $0.state == .delivered }.count)]
        }
    }

    func undelivered() throws(SourceError) -> [SinkDeliverySummary] { [] }
    func undelivered(matching id: String) throws(SourceError) -> [SinkDeliverySummary] { [] }
    func retry(_ id: String) throws(SourceError) -> Int { 0 }
    func drop(_ id: String) throws(SourceError) -> Int { 0 }

    private func update(_ id: String, _ change: (inout Entry) -> Void) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.delivery.id == id }) { change(&entries[index]) }
        }
    }
}

/// Answers each attempt with the next scripted result (the last one repeats), recording what was sent.
final class ScriptedTransport: SinkTransport {
    private let script: Mutex<[SinkAttemptResult]>
    let sent = Mutex<[String]>([])
    /// What each attempt carried.
    let lines = Mutex<[String]>([])

    init(_ script: [SinkAttemptResult]) {
        self.script = Mutex(script)
    }

    func send(_ delivery: SinkDelivery, cancellation: CancellationToken, completion: @escaping @Sendable (SinkAttemptResult) -> Void) {
        sent.withLock { $0.append(delivery.id) }
        lines.withLock { $0.append(String(decoding: delivery.itemLines, as: UTF8.self)) }
        let result = script.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
        DispatchQueue.global().async { completion(result) }
    }
}

@Suite("Delivering to a sink")
struct DeliverToSinkUseCaseTests {
    static let items = ["a", "b", "c"].map { SinkItem(source: "news", item: Item(kind: .record, id: $0, title: $0)) }
    static let down = SinkAttemptResult.retryable(SourceError(.network, "connection refused"), retryAfter: nil)

    /// Runs one pass; the waits it asked for are returned instead of taken.
    private func pass(
        _ outbox: MemoryOutbox, _ transport: ScriptedTransport, items: [SinkItem] = items, maxRetries: Int = 2,
        grouping: SinkGrouping = .each, at now: TimeInterval = 1_000
    ) async -> (SinkReport, [TimeInterval]) {
        let waits = Mutex<[TimeInterval]>([])
        let timing = SinkTiming(
            now: { Date(timeIntervalSince1970: now) },
            after: { seconds, work in
                waits.withLock { $0.append(seconds) }
                DispatchQueue.global().async(execute: work)
            },
            jitter: { 1 })
        let useCase = DeliverToSinkUseCase(
            sink: "hook", outbox: outbox, transport: .success(transport),
            policy: SinkRetryPolicy(maxRetries: maxRetries, baseDelay: 1, maxDelay: 30, maxWait: 60), timing: timing,
            grouping: grouping)
        let report = await withCheckedContinuation { continuation in
            useCase.execute(newItems: items, batchSize: 2, send: true, cancellation: CancellationToken()) {
                continuation.resume(returning: $0)
            }
        }
        return (report, waits.withLock { $0 })
    }

    @Test("a down receiver is tried with exponential backoff, then everything waits, in order, for the next pass")
    func downThenUp() async {
        let outbox = MemoryOutbox()
        let (failed, waits) = await pass(outbox, ScriptedTransport([Self.down]))
        #expect(waits == [1, 2], "backoff 1 s, then 2 s, then no more tries (maxRetries 2)")
        #expect(failed.queued == 2 && failed.delivered == 0 && failed.pending == 2)
        #expect(failed.hasFailures)

        let transport = ScriptedTransport([.delivered])
        let (up, _) = await pass(outbox, transport)
        #expect(transport.sent.withLock { $0 } == ["d0", "d2"], "the same deliveries, oldest first")
        #expect(up.queued == 0, "nothing new: the items were seen when queued")
        #expect(up.delivered == 2 && up.deliveredItems == 3 && up.pending == 0 && !up.hasFailures)
    }

    @Test("a 503 then success is one delivery; a 429's Retry-After is the wait")
    func retryAfter() async {
        let busy = SinkAttemptResult.retryable(SourceError(.rateLimited, "HTTP 429"), retryAfter: 7)
        let outbox = MemoryOutbox()
        let (report, waits) = await pass(outbox, ScriptedTransport([busy, .delivered]))
        #expect(waits == [7])
        #expect(report.delivered == 2 && !report.hasFailures)
    }

    @Test("a Retry-After past the longest wait leaves the delivery pending until then, without trying again now")
    func longRetryAfter() async {
        let later = SinkAttemptResult.retryable(SourceError(.rateLimited, "HTTP 429"), retryAfter: 3600)
        let outbox = MemoryOutbox()
        let transport = ScriptedTransport([later])
        let (report, waits) = await pass(outbox, transport)
        #expect(waits.isEmpty)
        #expect(transport.sent.withLock { $0 } == ["d0"])
        #expect(outbox.entries.withLock { $0[0].notBefore } == Date(timeIntervalSince1970: 1_000 + 3600))
        #expect(report.pending == 2 && report.hasFailures)
    }

    @Test("a refusal is not retried: that delivery fails, the next one is still sent")
    func rejected() async {
        let outbox = MemoryOutbox()
        let transport = ScriptedTransport([.rejected(SourceError(.unauthorized, "HTTP 403")), .delivered])
        let (report, waits) = await pass(outbox, transport)
        #expect(waits.isEmpty)
        #expect(transport.sent.withLock { $0 } == ["d0", "d2"])
        #expect(report.rejected == 1 && report.delivered == 1)
        #expect(report.errors.count == 1 && report.errors[0].contains("refused, not retried: HTTP 403"))
        #expect(outbox.entries.withLock { $0.map(\.state) } == [.failed, .delivered])
    }

    @Test("a digest is one attempt carrying every pending delivery, and all of them are marked together")
    func digestEveryPass() async {
        let outbox = MemoryOutbox()
        let transport = ScriptedTransport([.delivered])
        let (report, _) = await pass(outbox, transport, grouping: .digest(period: 0))
        #expect(transport.sent.withLock { $0 } == ["d0"], "one attempt, named after the oldest delivery")
        #expect(transport.lines.withLock { $0 } == ["a\nb\nc\n"], "with every item, in order")
        #expect(report.delivered == 2 && report.deliveredItems == 3 && report.pending == 0)
        #expect(outbox.entries.withLock { $0.map(\.state) } == [.delivered, .delivered])
    }

    @Test("an hourly digest waits until its oldest item has waited an hour, gathering across passes; a failure keeps all")
    func digestGathers() async {
        let outbox = MemoryOutbox()
        let hourly = SinkGrouping.digest(period: 3600)
        let transport = ScriptedTransport([Self.down, .delivered])
        let (early, _) = await pass(outbox, transport, grouping: hourly, at: 1_000)
        #expect(transport.sent.withLock { $0 }.isEmpty, "not due: nothing sent")
        #expect(early.queued == 2 && early.pending == 2 && !early.hasFailures)

        let more = [SinkItem(source: "news", item: Item(kind: .record, id: "d", title: "d"))]
        let (down, _) = await pass(outbox, transport, items: more, maxRetries: 0, grouping: hourly, at: 1_000 + 3600)
        #expect(down.hasFailures && down.pending == 3, "the receiver is down: everything stays pending")

        let (up, _) = await pass(outbox, transport, items: [], grouping: hourly, at: 1_000 + 3601)
        #expect(transport.lines.withLock { $0 }.last == "a\nb\nc\nd\n", "every item once, in one message")
        #expect(up.delivered == 3 && up.pending == 0)
        let (after, _) = await pass(outbox, transport, items: [], grouping: hourly, at: 1_000 + 7200)
        #expect(transport.sent.withLock { $0 }.count == 2 && after.delivered == 0, "nothing twice")
    }

    @Test("the decisions: delivered, backoff capped and jittered, no wait past maxWait, refusals fail")
    func policy() {
        let policy = SinkRetryPolicy(maxRetries: 3, baseDelay: 1, maxDelay: 5, maxWait: 60)
        #expect(policy.decide(after: .delivered, retry: 0, jitter: 1) == .delivered)
        #expect(policy.decide(after: Self.down, retry: 0, jitter: 0.5) == .retry(after: 0.5))
        #expect(policy.decide(after: Self.down, retry: 2, jitter: 1) == .retry(after: 4))
        #expect(policy.backoff(retry: 10, jitter: 1) == 5)
        #expect(policy.decide(after: Self.down, retry: 3, jitter: 1) == .keepPending(notBefore: nil))
        #expect(policy.decide(after: .retryable(SourceError(.rateLimited, "x"), retryAfter: 90), retry: 0, jitter: 1)
            == .keepPending(notBefore: 90))
        #expect(policy.decide(after: .rejected(SourceError(.badResponse, "x")), retry: 0, jitter: 1) == .fail)
    }
}
