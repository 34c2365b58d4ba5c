import Foundation
import Synchronization

/// Tells running work that its result is no longer wanted (the source timed out, the run's deadline passed).
///
/// Work registers a handler (cancel a URLSession task, terminate a process); a handler registered after
/// cancellation runs at once, so nothing slips through the gap.
///
/// A token may also carry the deadline at which it will be cancelled, so work that is only handed the
/// token (a repository) can size its own timeouts and decide whether waiting (a `Retry-After`) still fits.
public final class CancellationToken: Sendable {
    private struct State {
        var isCancelled = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// When this token will be cancelled for running out of time, if known.
    public let deadline: DispatchTime?

    public init(deadline: DispatchTime? = nil) {
        self.deadline = deadline
    }

    /// Seconds left before `deadline` (never negative), or nil when the token has no deadline.
    public var remainingSeconds: Double? {
        guard let deadline else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        let end = deadline.uptimeNanoseconds
        return end > now ? Double(end - now) / 1e9 : 0
    }

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
