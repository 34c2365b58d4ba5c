import Foundation
import Synchronization

/// The time a sink pass runs on: what time it is, a wake-up after a delay, and the jitter of backoffs.
/// Injected so tests drive it.
public struct SinkTiming: Sendable {
    /// What time it is.
    public var now: @Sendable () -> Date
    /// Runs `work` once after `seconds`, on any thread.
    public var after: @Sendable (_ seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Void
    /// A backoff's jitter factor, in 0.5…1.
    public var jitter: @Sendable () -> Double

    /// A timing of the given clock, wake-ups and jitter (tests drive all three).
    public init(
        now: @escaping @Sendable () -> Date,
        after: @escaping @Sendable (_ seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Void,
        jitter: @escaping @Sendable () -> Double
    ) {
        self.now = now
        self.after = after
        self.jitter = jitter
    }

    /// The time and wake-ups of `clock` (a test's `TestClock`), and `jitter`.
    public init(clock: any TimerClock, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0.5...1) }) {
        self.init(now: { clock.now }, after: { seconds, work in clock.wake(after: seconds, work) }, jitter: jitter)
    }

    /// The system's clock, timers on a global queue, a random jitter.
    public static let system = SinkTiming(clock: SystemClock())
}

/// How a sink's pending deliveries go out.
public enum SinkGrouping: Sendable, Hashable {
    /// One attempt per delivery, oldest first (a webhook, a program, a notification).
    case each
    /// Every pending delivery as one attempt (an email digest: one message with every item), once the oldest
    /// has waited `period` seconds (0: at every pass). What is not due yet stays in the outbox, so a digest
    /// gathers across runs and restarts; all of them are marked together.
    case digest(period: TimeInterval)
}

/// One sink after a run: queues the items it never saw (outbox), then sends its pending deliveries oldest
/// first, each up to the retry policy's tries.
///
/// A delivery the receiver cannot take now (down, 5xx, 429 past the policy) stops the pass: the later ones
/// stay pending behind it, in order, for the next run or cycle. One it refused for good (another 4xx) is
/// marked failed and the pass goes on. Store reads and writes run on a thread of the pass's own (an
/// `OrderedHandoff` consumer), never on the thread that answered an attempt (a shared pool thread).
public struct DeliverToSinkUseCase: Sendable {
    private let sink: String
    private let outbox: any SinkOutboxRepository
    private let transport: Result<any SinkTransport, SourceError>
    private let policy: SinkRetryPolicy
    private let timing: SinkTiming
    private let grouping: SinkGrouping

    /// - Parameters:
    ///   - sink: the sink's name in the manifest, whose deliveries the pass takes from `outbox`.
    ///   - outbox: where the sink's deliveries wait, in order, and where their outcomes are written.
    ///   - transport: the sink's receiver, or why it cannot be used (a missing `${VAR}`): its items are still
    ///     queued, and wait.
    ///   - policy: when a failed attempt is retried within the pass, and when the pass stops.
    ///   - timing: what time it is, the waits between retries and their jitter.
    ///   - grouping: one attempt per delivery, or every pending one as a digest.
    public init(
        sink: String, outbox: any SinkOutboxRepository, transport: Result<any SinkTransport, SourceError>,
        policy: SinkRetryPolicy = SinkRetryPolicy(), timing: SinkTiming = .system, grouping: SinkGrouping = .each
    ) {
        self.grouping = grouping
        self.sink = sink
        self.outbox = outbox
        self.transport = transport
        self.policy = policy
        self.timing = timing
    }

    /// - Parameters:
    ///   - newItems: this run's items from the sources the sink takes, in output order.
    ///   - batchSize: items per delivery, at most.
    ///   - send: false queues only (`--offline`).
    ///   - cancellation: a stop: the attempt in flight is abandoned and everything unsent stays pending.
    ///   - completion: called once, on no particular thread.
    public func execute(
        newItems: [SinkItem], batchSize: Int, send: Bool, cancellation: CancellationToken,
        completion: @escaping @Sendable (SinkReport) -> Void
    ) {
        let pass = SinkPass(
            sink: sink, outbox: outbox, transport: transport, policy: policy, timing: timing, grouping: grouping,
            cancellation: cancellation, completion: completion)
        pass.start(newItems: newItems, batchSize: batchSize, send: send)
    }
}

/// One pass's state; every step runs on the pass's own thread, in order.
private final class SinkPass: Sendable {
    private struct State {
        var report: SinkReport
        var queue: [SinkDelivery] = []
        var retry = 0
        var isDone = false
        var cancelRegistration: Int?
        /// A digest's attempt (by its id) → the deliveries it carries.
        var members: [String: [String]] = [:]
    }

    private let outbox: any SinkOutboxRepository
    private let transport: Result<any SinkTransport, SourceError>
    private let policy: SinkRetryPolicy
    private let timing: SinkTiming
    private let grouping: SinkGrouping
    private let cancellation: CancellationToken
    private let completion: @Sendable (SinkReport) -> Void
    private let steps = OrderedHandoff<@Sendable () -> Void>(producers: 1, capacity: 1)
    private let state: Mutex<State>

    init(
        sink: String, outbox: any SinkOutboxRepository, transport: Result<any SinkTransport, SourceError>,
        policy: SinkRetryPolicy, timing: SinkTiming, grouping: SinkGrouping, cancellation: CancellationToken,
        completion: @escaping @Sendable (SinkReport) -> Void
    ) {
        self.grouping = grouping
        self.outbox = outbox
        self.transport = transport
        self.policy = policy
        self.timing = timing
        self.cancellation = cancellation
        self.completion = completion
        self.state = Mutex(State(report: SinkReport(id: sink)))
    }

    private var sink: String { state.withLock { $0.report.id } }

    func start(newItems: [SinkItem], batchSize: Int, send: Bool) {
        steps.drain(name: "aggregate.sink", { _, step, _ in step() }, done: {})
        step { [self] in
            if !newItems.isEmpty {
                do throws(SourceError) {
                    let queued = try outbox.enqueue(sink: sink, items: newItems, batchSize: batchSize, at: timing.now())
                    state.withLock { state in
                        state.report.queued = queued.count
                        state.report.queuedItems = queued.reduce(0) { $0 + $1.itemCount }
                    }
                } catch {
                    // Nothing was recorded as seen either: the next run offers the same items again.
                    state.withLock { $0.report.unqueued = true }
                    return finish(error: "the outbox could not be written: \(error.message)")
                }
            }
            guard send else { return finish() }
            let pending: [SinkDelivery]
            do throws(SourceError) {
                pending = try outbox.pending(sink: sink, now: timing.now())
            } catch {
                return finish(error: "the outbox could not be read: \(error.message)")
            }
            guard !pending.isEmpty else { return finish() }
            switch grouping {
            case .each:
                state.withLock { $0.queue = pending }
            case .digest(let period):
                // Not due: everything waits in the outbox for a later pass.
                guard timing.now().timeIntervalSince(pending[0].createdAt) >= period else { return finish() }
                let digest = Self.digest(of: pending)
                state.withLock { state in
                    state.queue = [digest]
                    state.members[digest.id] = pending.map(\.id)
                }
            }
            switch transport {
            case .failure(let error): return finish(error: error.message)
            case .success: break
            }
            let registration = cancellation.onCancel { [self] in step { self.finish() } }
            state.withLock { $0.cancelRegistration = registration }
            attemptNext()
        }
    }

    /// Every pending delivery as one: the oldest's id, every item in order.
    private static func digest(of pending: [SinkDelivery]) -> SinkDelivery {
        var lines = Data()
        for delivery in pending { lines.append(delivery.itemLines) }
        return SinkDelivery(
            id: pending[0].id, sink: pending[0].sink, itemLines: lines, itemCount: pending.reduce(0) { $0 + $1.itemCount },
            attempts: pending.map(\.attempts).max() ?? 0, createdAt: pending[0].createdAt)
    }

    /// The outbox's deliveries an attempt carries: itself, or a digest's members.
    private func members(of delivery: SinkDelivery) -> [String] {
        state.withLock { $0.members[delivery.id] } ?? [delivery.id]
    }

    /// Runs `work` on the pass's thread, after the steps before it.
    private func step(_ work: @escaping @Sendable () -> Void) {
        steps.push(work, from: 0, waiting: false)
    }

    /// On the pass's thread: sends the oldest delivery left.
    private func attemptNext() {
        guard case .success(let transport) = transport,
              let delivery = state.withLock({ $0.isDone ? nil : $0.queue.first }) else { return finish() }
        guard !cancellation.isCancelled else { return finish() }
        transport.send(delivery, cancellation: cancellation) { [self] result in
            step { self.handle(result, of: delivery) }
        }
    }

    private func handle(_ result: SinkAttemptResult, of delivery: SinkDelivery) {
        guard !state.withLock({ $0.isDone }) else { return }
        // An attempt cut short by a stop is no failure of the receiver: nothing is recorded.
        if cancellation.isCancelled, result != .delivered { return finish() }
        let retry = state.withLock { $0.retry }
        let now = timing.now()
        let decision = policy.decide(after: result, retry: retry, jitter: timing.jitter())
        do throws(SourceError) {
            switch (decision, result) {
            case (.delivered, _):
                let members = members(of: delivery)
                for id in members { try outbox.markDelivered(id, at: now) }
                advance { report in
                    report.delivered += members.count
                    report.deliveredItems += delivery.itemCount
                }
            case (.retry(let seconds), .retryable(let error, _)):
                for id in members(of: delivery) {
                    try outbox.markFailed(id, error: error.message, permanently: false, notBefore: nil, at: now)
                }
                state.withLock { $0.retry += 1 }
                timing.after(seconds) { [self] in step { self.attemptNext() } }
            case (.keepPending(let notBefore), .retryable(let error, _)):
                for id in members(of: delivery) {
                    try outbox.markFailed(
                        id, error: error.message, permanently: false, notBefore: notBefore.map { now.addingTimeInterval($0) },
                        at: now)
                }
                let tries = retry + 1
                finish(error: "delivery \(delivery.id) (\(delivery.itemCount) items) failed after \(tries) "
                    + "\(tries == 1 ? "try" : "tries"), kept for the next run: \(error.message)")
            case (.fail, .rejected(let error)):
                let members = members(of: delivery)
                for id in members { try outbox.markFailed(id, error: error.message, permanently: true, notBefore: nil, at: now) }
                advance { report in
                    report.rejected += members.count
                    report.errors.append("delivery \(delivery.id) (\(delivery.itemCount) items) refused, not retried: "
                        + "\(error.message)")
                }
            default:
                finish(error: "delivery \(delivery.id): unexpected outcome")
            }
        } catch {
            finish(error: "the outbox could not be updated: \(error.message)")
        }
    }

    /// The head delivery is settled: count it, then the next one.
    private func advance(_ count: (inout SinkReport) -> Void) {
        state.withLock { state in
            count(&state.report)
            state.queue.removeFirst()
            state.retry = 0
        }
        attemptNext()
    }

    /// Ends the pass once: the report, with what is still pending counted by the store.
    private func finish(error: String? = nil) {
        let (report, registration) = state.withLock { state -> (SinkReport?, Int?) in
            guard !state.isDone else { return (nil, nil) }
            state.isDone = true
            if let error { state.report.errors.append(error) }
            return (state.report, state.cancelRegistration)
        }
        guard var report else { return }
        if let registration { cancellation.removeHandler(registration) }
        report.pending = (try? outbox.counts().first { $0.sink == report.id }?.pending) ?? 0
        steps.finish(0)
        completion(report)
    }
}
