import Synchronization

/// Passes on the batches of several concurrent producers in producer order, without waiting for all of them.
///
/// Producer 0's batches go straight through as they arrive; producer 1's are held until producer 0 finishes,
/// then go through, and so on. So the first unfinished producer (a file being read, the first source of the
/// run) streams, and only the producers running ahead of it are buffered.
///
/// `forward` runs under the relay's lock: calls never overlap and come in order, but from whichever thread
/// pushed or finished. It must not call back into the relay.
public final class OrderedRelay<Batch: Sendable>: Sendable {
    private struct State {
        var head = 0
        var pending: [[Batch]]
        var finished: [Bool]
    }

    private let state: Mutex<State>
    private let forward: @Sendable (_ producer: Int, _ batch: Batch) -> Void

    /// - Parameters:
    ///   - producers: how many producers there are (indices `0..<producers`).
    ///   - forward: receives every batch, in producer order, each producer's batches in their own order.
    public init(producers: Int, forward: @escaping @Sendable (_ producer: Int, _ batch: Batch) -> Void) {
        self.state = Mutex(State(
            pending: Array(repeating: [], count: producers), finished: Array(repeating: false, count: producers)))
        self.forward = forward
    }

    /// A batch of `producer`'s, in its order. Ignored once that producer finished.
    public func push(_ batch: Batch, from producer: Int) {
        state.withLock { state in
            guard !state.finished[producer] else { return }
            if producer == state.head {
                forward(producer, batch)
            } else {
                state.pending[producer].append(batch)
            }
        }
    }

    /// `producer` has no more batches. When it is the head, the producers after it that already
    /// finished are passed on whole, and the next unfinished one becomes the head.
    public func finish(_ producer: Int) {
        state.withLock { state in
            guard !state.finished[producer] else { return }
            state.finished[producer] = true
            while state.head < state.finished.count {
                let head = state.head
                for batch in state.pending[head] { forward(head, batch) }
                state.pending[head] = []
                guard state.finished[head] else { return }
                state.head += 1
            }
        }
    }
}
