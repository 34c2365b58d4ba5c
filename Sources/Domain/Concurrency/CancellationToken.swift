import Foundation
import Synchronization

/// Tells running work that its result is no longer wanted (the source timed out, the run's deadline passed).
///
/// Work registers a handler (stop a transfer, terminate a process); a handler registered after
/// cancellation runs at once, so nothing slips through the gap.
///
/// A token may also carry the deadline at which it will be cancelled, so work that is only handed the
/// token (a repository) can size its own timeouts and decide whether waiting (a `Retry-After`) still fits.
/// The deadline's clock can be paused (`pauseDeadline`) while the work waits on the run rather than on itself.
public final class CancellationToken: Sendable {
    private struct State {
        var isCancelled = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextHandler = 0
        /// Pauses not yet ended, since when the first of them began, and the paused time of those that ended.
        var pauses = 0
        var pausedSince: UInt64 = 0
        var pausedNanoseconds: UInt64 = 0
    }

    private let state = Mutex(State())
    private let initialDeadline: DispatchTime?
    /// The latest the deadline may move to by pauses (the run's `--deadline`).
    private let latestDeadline: DispatchTime?
    /// What the deadlines are readings of (`uptime`): a timer set for one of them is set on this clock.
    public let clock: any TimerClock

    /// - Parameters:
    ///   - deadline: when the token will be cancelled for running out of time, if known.
    ///   - latest: how far pauses may move the deadline at most; nil: no bound.
    public init(deadline: DispatchTime? = nil, latest: DispatchTime? = nil) {
        self.initialDeadline = deadline
        self.latestDeadline = latest
        self.clock = SystemClock()
    }

    /// A token whose deadlines are readings of `clock`'s `uptime`, and whose pauses it measures.
    public init(deadline: DispatchTime? = nil, latest: DispatchTime? = nil, clock: any TimerClock) {
        self.initialDeadline = deadline
        self.latestDeadline = latest
        self.clock = clock
    }

    /// When this token will be cancelled for running out of time, if known: the deadline it was made with, later
    /// by the time it spent paused (never past its `latest`).
    public var deadline: DispatchTime? {
        guard let initialDeadline else { return nil }
        let now = clock.uptime.uptimeNanoseconds
        let paused = state.withLock { $0.pausedNanoseconds + ($0.pauses > 0 ? now - $0.pausedSince : 0) }
        guard paused > 0 else { return initialDeadline }
        let moved = DispatchTime(uptimeNanoseconds: initialDeadline.uptimeNanoseconds + paused)
        return latestDeadline.map { min(moved, $0) } ?? moved
    }

    /// Stops the deadline's clock until the returned closure is called (only its first call counts): for a wait
    /// that is the run's doing, not the work's — a request waiting for a slot of the process-wide limit on
    /// requests in flight, so that a source's timeout measures its server, not the run's backlog. Pauses may
    /// overlap; the clock runs again when the last one ends.
    public func pauseDeadline() -> @Sendable () -> Void {
        state.withLock { state in
            if state.pauses == 0 { state.pausedSince = clock.uptime.uptimeNanoseconds }
            state.pauses += 1
        }
        let ended = Atomic(false)
        return { [self] in
            guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
            state.withLock { state in
                state.pauses -= 1
                if state.pauses == 0 { state.pausedNanoseconds += clock.uptime.uptimeNanoseconds - state.pausedSince }
            }
        }
    }

    /// For a timer set for `deadline` that fired: nil when the time is up, else when to look again (the deadline
    /// moved by pauses). While a pause goes on that is at least 50 ms away: a source paused with a moment left
    /// would otherwise wake its timer in a tight loop for as long as it waits.
    public func nextCheck(afterFiringAt deadline: DispatchTime) -> DispatchTime? {
        guard let moved = self.deadline, moved > deadline else { return nil }
        return max(moved, clock.uptime + .milliseconds(50))
    }

    /// Seconds left before `deadline` (never negative), or nil when the token has no deadline.
    public var remainingSeconds: Double? {
        guard let deadline else { return nil }
        let now = clock.uptime.uptimeNanoseconds
        let end = deadline.uptimeNanoseconds
        return end > now ? Double(end - now) / 1e9 : 0
    }

    /// Whether the token was cancelled: by its deadline, the run, or a caller.
    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Cancels the token and runs its handlers once; later calls do nothing.
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
