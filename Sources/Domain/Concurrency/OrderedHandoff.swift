import Foundation

/// The one bounded hand-off of the project: several concurrent producers, one consumer thread, batches
/// taken in producer order, with back-pressure on the producer being consumed.
///
/// Producer 0's batches are taken as they arrive; producer 1's wait until producer 0 finishes, and so on.
/// So the first unfinished producer (the first source of the run, the file being read) streams, and only
/// the producers running ahead of it are buffered. A producer that pushes while it is the head waits while
/// `capacity` of its batches are untaken (`push(_:from:waiting:)`): a fast reader cannot outrun a slow
/// writer. Producers behind the head never wait (what they push is already in memory, and waiting there
/// could deadlock: the consumer takes only the head's batches).
///
/// No callback runs under the lock, and nobody holds it while waiting: producers and the consumer wait on
/// its condition, which releases it. The consumer is a thread of its own (`drain`), never a shared pool
/// thread, because `next()` blocks.
public final class OrderedHandoff<Batch: Sendable>: @unchecked Sendable {
    // @unchecked: every stored `var` below is read and written only between `condition.lock()` and
    // `condition.unlock()`; the `let`s are immutable. NSCondition is its own lock, so a waiter releases it.
    private let condition = NSCondition()
    private let capacity: Int
    private var head = 0
    /// Batches not taken yet; a taken one's slot is emptied at once, so the consumer holds the only reference and
    /// frees the batch (a few hundred items) after consuming it, outside the lock, not under it while the
    /// producer waits to push.
    private var pending: [[Batch?]]
    /// How many of `pending[head]` were taken already (the array is compacted when it empties).
    private var taken = 0
    private var finished: [Bool]
    private var isCancelled = false

    /// - Parameters:
    ///   - producers: how many producers there are (indices `0..<producers`).
    ///   - capacity: untaken batches of the head producer before its pushes wait.
    public init(producers: Int, capacity: Int) {
        self.capacity = max(1, capacity)
        self.pending = Array(repeating: [], count: producers)
        self.finished = Array(repeating: false, count: producers)
    }

    /// A batch of `producer`'s, in its order. Ignored once that producer finished or the hand-off was
    /// cancelled.
    /// - Parameters:
    ///   - batch: the items, passed on as one.
    ///   - producer: the producer's index, from 0.
    ///   - waiting: wait for room while `producer` is the head and `capacity` of its batches are untaken; pass
    ///     false for a batch already held whole in memory (nothing is saved by waiting).
    public func push(_ batch: Batch, from producer: Int, waiting: Bool = true) {
        condition.lock()
        defer { condition.unlock() }
        while waiting, !isCancelled, producer == head, pending[producer].count - taken >= capacity {
            condition.wait()
        }
        guard !isCancelled, !finished[producer] else { return }
        pending[producer].append(batch)
        if producer == head { condition.broadcast() }
    }

    /// `producer` has no more batches.
    public func finish(_ producer: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard !finished[producer] else { return }
        finished[producer] = true
        condition.broadcast()
    }

    /// The next batch in order, waiting for one; nil once every producer finished and everything was taken,
    /// or the hand-off was cancelled. `more`: another batch of the same producer is ready now.
    public func next() -> (producer: Int, batch: Batch, more: Bool)? {
        while let taken = nextEvent() {
            if case .batch(let producer, let batch, let more) = taken { return (producer, batch, more) }
        }
        return nil
    }

    /// The next batch, or the end of the producer all of whose batches were taken; nil at the end.
    private func nextEvent() -> Taken? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch take() {
            case .end: return nil
            case .none: condition.wait()
            case let taken: return taken
            }
        }
    }

    /// `next()` without waiting: nil when no batch is ready now (or none will come).
    public func nextIfReady() -> (producer: Int, batch: Batch, more: Bool)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch take() {
            case .batch(let producer, let batch, let more): return (producer, batch, more)
            case .finished: continue
            case .end, .none: return nil
            }
        }
    }

    private enum Taken {
        case batch(Int, Batch, more: Bool)
        /// Every batch of this producer was taken, and it finished.
        case finished(Int)
        case end
        case none
    }

    /// Under the lock: the head's next batch, or the end of the head producer (the next one becomes the head).
    private func take() -> Taken {
        while true {
            if isCancelled || head == pending.count { return .end }
            if taken < pending[head].count {
                let batch = pending[head][taken]!
                pending[head][taken] = nil
                taken += 1
                let more = taken < pending[head].count
                if !more {
                    pending[head].removeAll(keepingCapacity: true)
                    taken = 0
                } else if taken >= capacity {
                    // A producer that stays just ahead never lets the array empty: drop what was taken (at
                    // most `capacity` are kept), or every batch it ever pushed would stay referenced here.
                    pending[head].removeFirst(taken)
                    taken = 0
                }
                condition.broadcast()  // room for the head's producer
                return .batch(head, batch, more: more)
            }
            guard finished[head] else { return .none }
            pending[head] = []
            head += 1
            taken = 0
            condition.broadcast()  // the new head may be waiting to push
            return .finished(head - 1)
        }
    }

    /// The consumer is gone: waiting producers return, later pushes are dropped, `next()` answers nil.
    public func cancel() {
        condition.lock()
        isCancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Takes every batch in order on a new thread named `name`, handing each to `consume` (with `more`, as
    /// `next()` tells it) and each producer's end, after its last batch, to `finished`; then calls `done` on that
    /// thread.
    public func drain(
        name: String, _ consume: @escaping @Sendable (_ producer: Int, _ batch: Batch, _ more: Bool) -> Void,
        finished: @escaping @Sendable (_ producer: Int) -> Void = { _ in }, done: @escaping @Sendable () -> Void = {}
    ) {
        let thread = Thread { [self] in
            while let taken = nextEvent() {
                switch taken {
                case .batch(let producer, let batch, let more): consume(producer, batch, more)
                case .finished(let producer): finished(producer)
                case .end, .none: break
                }
            }
            done()
        }
        thread.name = name
        thread.start()
    }
}
