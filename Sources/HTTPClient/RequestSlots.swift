import Dispatch
import Synchronization

/// The process-wide limit on HTTP requests in flight across every source (`defaults.maxConcurrentRequests`),
/// beside each source's own `concurrency`: a manifest of 1,000 feeds opens at most `limit` connections at once,
/// whatever each source would allow itself.
///
/// An attempt takes a slot before it is sent and gives it back when its outcome is known (or the exchange
/// ends); attempts that find every slot taken wait in order of arrival. Nothing blocks a thread: a waiting
/// attempt is a closure, started on a queue of the limit's own when a slot frees.
public final class RequestSlots: Sendable {
    /// Most requests in flight at once.
    public let limit: Int
    /// The limit on answers held in memory, in flight or read by nobody yet (`answersLimit`): an exchange takes one
    /// of these before its first attempt and gives it back once its source has read the answer, so when parsing
    /// is slower than the network the answers waiting for a core stay bounded while the network keeps `limit`
    /// requests in flight. Nil on this inner limit itself.
    public let answers: RequestSlots?

    private struct State {
        var inUse = 0
        /// Waiting attempts, oldest first from `head` (the consumed prefix is dropped now and then).
        var waiting: [@Sendable (RequestSlot) -> Void] = []
        var head = 0
        var peak = 0

        var waitingCount: Int { waiting.count - head }

        mutating func popFirst() -> (@Sendable (RequestSlot) -> Void)? {
            guard head < waiting.count else { return nil }
            let first = waiting[head]
            head += 1
            if head >= 64, head * 2 >= waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            return first
        }
    }

    private let state = Mutex(State())
    /// Where a freed slot's waiting attempt starts. Not the global queue: its threads are the ones parsing the
    /// responses, so a request start queued there waited behind the parsing of earlier responses and the
    /// requests in flight fell below the limit (58 of 64 for 1,000 feeds). A serial queue gets a thread when
    /// the pool's are busy, and starting an attempt only hands its request to the transport: one queue serves
    /// every limit of the process.
    private static let starter = DispatchQueue(label: "aggregate.request-slots")

    /// - Parameters:
    ///   - limit: the most attempts in flight at once (at least 1).
    ///   - boundingAnswers: whether the limit keeps `answers` (the process-wide one does; a source's own
    ///     `concurrency` needs none).
    public init(limit: Int, boundingAnswers: Bool = true) {
        self.limit = max(1, limit)
        self.answers = boundingAnswers ? RequestSlots(limit: Self.answersLimit(max(1, limit)), boundingAnswers: false) : nil
    }

    /// The answers held for `limit` requests in flight: those, and a quarter more waiting for a core (two at least),
    /// so the bodies in memory stay bounded when parsing is slower than the network. (Why not more:
    /// BENCHMARKS.md, "Memory at 10,000 sources".)
    static func answersLimit(_ limit: Int) -> Int { limit + max(2, limit / 4) }

    /// Calls `start` with a slot once one is free: at once (on this thread) when one is, else on the limit's
    /// own queue when an earlier slot is released. The slot must be released (once; later calls do nothing).
    public func acquire(_ start: @escaping @Sendable (RequestSlot) -> Void) {
        let granted = state.withLock { state -> Bool in
            guard state.inUse < limit else {
                state.waiting.append(start)
                return false
            }
            state.inUse += 1
            state.peak = max(state.peak, state.inUse)
            return true
        }
        if granted { start(RequestSlot(self)) }
    }

    /// The most slots that were in use at once since the start (for tests and `--verbose`).
    public var peakInUse: Int { state.withLock { $0.peak } }

    /// Slots in use and attempts waiting for one, now.
    public var usage: (inUse: Int, waiting: Int) { state.withLock { ($0.inUse, $0.waitingCount) } }

    fileprivate func release() {
        // The slot passes straight to the oldest waiter (the count stays); it starts outside the lock.
        let next = state.withLock { state -> (@Sendable (RequestSlot) -> Void)? in
            if let next = state.popFirst() { return next }
            state.inUse -= 1
            return nil
        }
        guard let next else { return }
        let slot = RequestSlot(self)
        Self.starter.async { next(slot) }
    }
}

/// One request's hold on a `RequestSlots` slot.
public final class RequestSlot: Sendable {
    private let slots: RequestSlots
    private let released = Atomic(false)

    fileprivate init(_ slots: RequestSlots) {
        self.slots = slots
    }

    /// Gives the slot back; only the first call counts.
    public func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        slots.release()
    }

    deinit {
        // A slot dropped without release would shrink the limit for the rest of the process.
        release()
    }
}
