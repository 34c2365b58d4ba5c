import Foundation
import Synchronization

/// Tells running work that its result is no longer wanted (the source timed out, the run's deadline passed).
///
/// Work registers a handler (cancel a URLSession task, terminate a process); a handler registered after
/// cancellation runs at once, so nothing slips through the gap.
public final class CancellationToken: Sendable {
    private struct State {
        var isCancelled = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    public func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isCancelled else { return [] }
            state.isCancelled = true
            defer { state.handlers = [] }
            return state.handlers
        }
        handlers.forEach { $0() }
    }

    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.isCancelled { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }
}
