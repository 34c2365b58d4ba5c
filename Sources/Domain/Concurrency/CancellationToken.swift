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
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextHandler = 0
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
            defer { state.handlers = [:] }
            return state.handlers.sorted { $0.key < $1.key }.map(\.value)
        }
        handlers.forEach { $0() }
    }

    /// Runs `handler` when the token is cancelled (at once if it already is). A long-lived token (a watch's,
    /// a server's) outlives the work that registers here: that work removes its handler when it ends
    /// (`removeHandler`), or every finished run would stay referenced by the token.
    /// - Returns: the handler's registration, for `removeHandler`.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int {
        let registration = state.withLock { state -> Int? in
            if state.isCancelled { return nil }
            defer { state.nextHandler += 1 }
            state.handlers[state.nextHandler] = handler
            return state.nextHandler
        }
        guard let registration else {
            handler()
            return -1
        }
        return registration
    }

    /// Handlers waiting for a cancel (for tests of work that must not leave any behind).
    var registeredHandlers: Int { state.withLock { $0.handlers.count } }

    /// Forgets a handler registered with `onCancel` (the work it would stop is over).
    public func removeHandler(_ registration: Int) {
        state.withLock { _ = $0.handlers.removeValue(forKey: registration) }
    }
}
