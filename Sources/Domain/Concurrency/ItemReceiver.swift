import Foundation
import Synchronization

/// The name `ItemReceiver` had before 0.10, kept so that sources written against 0.9 compile unchanged.
@available(*, deprecated, renamed: "ItemReceiver")
public typealias ItemSink = ItemReceiver

/// Where a source delivers its items, warnings and final outcome. Thread-safe; the first finish wins.
///
/// Items emitted before a failure or a timeout are kept: the status says the result is incomplete,
/// but nothing that arrived is thrown away. (A *sink* is something else: where new items are delivered
/// after a run, Domain's `SinkTransport`.)
public final class ItemReceiver: Sendable {
    /// How a source ended.
    public enum Outcome: Sendable, Equatable {
        /// Everything was loaded.
        case completed
        /// The source failed with the error; what it emitted before is kept.
        case failed(SourceError)
        /// The source's time ran out; what it emitted before is kept.
        case timedOut(SourceError)
    }

    private struct State {
        var isFinished = false
        var warnings: [String] = []
        /// `emit` calls forwarding right now; a finish that comes meanwhile waits for the last of them.
        var emitting = 0
        /// A finish that came while batches were being forwarded, delivered by the last of them.
        var deferredFinish: (Outcome, [String])?
    }

    private let state = Mutex(State())
    private let onItems: @Sendable ([Item]) -> Void
    private let onPastCap: @Sendable ([Item]) -> Void
    private let onFinish: @Sendable (Outcome, [String]) -> Void

    /// - Parameters:
    ///   - onItems: called for every non-empty batch emitted before the receiver finished.
    ///   - onPastCap: called for every non-empty batch of `emitPastCap` before the receiver finished.
    ///   - onFinish: called once, with the outcome and the warnings gathered, after every `onItems` call.
    public init(
        onItems: @escaping @Sendable ([Item]) -> Void,
        onPastCap: @escaping @Sendable ([Item]) -> Void = { _ in },
        onFinish: @escaping @Sendable (Outcome, [String]) -> Void
    ) {
        self.onItems = onItems
        self.onPastCap = onPastCap
        self.onFinish = onFinish
    }

    /// Delivers items in the source's own order (a source never emits from two threads at once). Ignored
    /// after the receiver finished (a late source).
    ///
    /// `onItems` runs outside the lock (it may wait for a slow writer); a finish from outside (the timeout)
    /// arriving meanwhile is delivered when it returns, so no batch ever follows `onFinish`.
    public func emit(_ items: [Item]) {
        forward(items, to: onItems)
    }

    /// Delivers items the source read but leaves out of what is printed because of a display cap
    /// (`maxItemsPerFeed`): the run records them in the item history and offers them to the sinks, so a
    /// burst larger than the cap is never lost, only not printed. The source says so in a warning. Same
    /// ordering rules as `emit`.
    public func emitPastCap(_ items: [Item]) {
        forward(items, to: onPastCap)
    }

    private func forward(_ items: [Item], to callback: @Sendable ([Item]) -> Void) {
        guard !items.isEmpty else { return }
        let forward = state.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            state.emitting += 1
            return true
        }
        guard forward else { return }
        callback(items)
        let deferred = state.withLock { state -> (Outcome, [String])? in
            state.emitting -= 1
            guard state.emitting == 0 else { return nil }
            defer { state.deferredFinish = nil }
            return state.deferredFinish
        }
        if let (outcome, warnings) = deferred { onFinish(outcome, warnings) }
    }

    /// Records a problem that did not stop the source (one city of five not found, a recovered feed).
    public func warn(_ message: String) {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.warnings.append(message)
        }
    }

    /// Ends the source successfully; after the first finish, later ones (and items) are ignored.
    public func finish() { close(.completed) }

    /// Fails the source. A `timeout` error times it out instead: a request's own timeout can fire a moment
    /// before the source's deadline does, and the same stall must not be reported `error` one run and
    /// `timeout` the next (as `StreamRecordsUseCase` already does for streams).
    public func fail(_ error: SourceError) {
        close(error.kind == .timeout ? .timedOut(error) : .failed(error))
    }

    /// Closes the receiver from outside (timeout or deadline). Returns false if the source had already finished.
    @discardableResult
    public func close(_ outcome: Outcome) -> Bool {
        let (closed, now): (Bool, [String]?) = state.withLock { state in
            guard !state.isFinished else { return (false, nil) }
            state.isFinished = true
            guard state.emitting == 0 else {
                state.deferredFinish = (outcome, state.warnings)
                return (true, nil)
            }
            return (true, state.warnings)
        }
        if let now { onFinish(outcome, now) }
        return closed
    }

    /// The shared partial-failure policy for sources made of several requests (cities, repositories,
    /// pages, feeds, files): items of every request that succeeded are emitted in request order and each
    /// failed request becomes a warning naming it; the source fails only when every request failed.
    public func finish(collecting results: [(label: String, result: Result<[Item], SourceError>)]) {
        var outcomes: [(label: String, error: SourceError?)] = []
        for (label, result) in results {
            switch result {
            case .success(let items):
                emit(items)
                outcomes.append((label, nil))
            case .failure(let error):
                outcomes.append((label, error))
            }
        }
        finish(reporting: outcomes)
    }

    /// The same policy when the requests' items were emitted already, as they streamed: each failed
    /// request (`error` set) becomes a warning naming it; the source fails only when every request failed.
    public func finish(reporting outcomes: [(label: String, error: SourceError?)]) {
        let failures = outcomes.compactMap { outcome in outcome.error.map { (label: outcome.label, error: $0) } }
        if !outcomes.isEmpty, failures.count == outcomes.count {
            if failures.count == 1 {
                fail(failures[0].error.prefixed(failures[0].label))
            } else {
                let details = failures.map { "\($0.label): \($0.error.message)" }.joined(separator: "; ")
                let retryAt = failures.compactMap(\.error.retryAt).max()
                fail(SourceError(failures[0].error.kind, "all \(failures.count) requests failed: \(details)", retryAt: retryAt))
            }
            return
        }
        for failure in failures {
            warn("\(failure.label): \(failure.error.kind.rawValue): \(failure.error.message)")
        }
        finish()
    }
}

extension ItemReceiver {
    /// The fan-out every multi-request source shares: one request per label (city, repository, feed, file),
    /// at most `context.concurrency` in flight, then `finish(collecting:)` with the results in label order.
    /// A request not started before the source's time ran out counts as a timeout of that request.
    public func collect(
        _ labels: [String], context: LoadContext,
        request: @escaping @Sendable (_ index: Int, _ done: @escaping @Sendable (Result<[Item], SourceError>) -> Void) -> Void
    ) {
        OrderedFanOut.run(
            count: labels.count, limit: context.concurrency, cancellation: context.cancellation,
            notStarted: { .failure(.notStarted) },
            job: request,
            completion: { results in
                self.finish(collecting: zip(labels, results).map { (label: $0, result: $1) })
            })
    }
}

extension SourceError {
    /// A request of a source's fan-out that never started because the source's time ran out first.
    static let notStarted = SourceError(.timeout, "not started before the source's time ran out")
}
