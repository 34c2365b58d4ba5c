#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The life of one program and its process group, from before it starts until nothing of it is left: a
/// state machine. Events go in (started, reaped, a stop asked for, a timer fired, the group polled) and the
/// actions for `ProgramRun` to perform come out. No threads, clocks or system calls here.
///
/// A stop is SIGTERM to the group, SIGKILL a grace period later if anything of it is left, and then waiting
/// (polling, after the program is reaped) until the group is gone, at most another grace period. Only then
/// is the lingering work over, so the run does not complete while any of it runs.
struct ProgramLifecycle: Sendable, Equatable {
    /// Why the run stopped the program before it finished.
    enum StopReason: Sendable, Equatable {
        case timeout, cancelled, outputCap
    }

    /// What `ProgramRun` does next. A `schedule…` action comes back as its event a grace period later.
    enum Action: Sendable, Equatable {
        /// The signal to the process group, and to the program itself while it is not reaped.
        case signal(Int32, group: Int32, alsoLeader: Bool)
        /// Stop reading stdout and stderr: what still holds them open is not the program.
        case closeOutput
        /// `graceElapsed()`.
        case scheduleEscalation
        /// `giveUpElapsed()`.
        case scheduleGiveUp
        /// `exitGraceElapsed(outputOpen:)`.
        case scheduleOutputCheck
        /// `groupPolled(exists:)` soon.
        case pollGroup
        /// The group outlived SIGKILL by a grace period: stop waiting for it (and say so).
        case abandonGroup
        /// The program and its group are over: end its `LingeringWork`.
        case endLingering
    }

    private enum Teardown: Sendable, Equatable {
        case none, terminating, killing, over
    }

    /// Its process group's id too; nil until it started.
    private(set) var pid: Int32?
    private(set) var stopReason: StopReason?
    private(set) var termination: ChildProcess.Termination?
    /// The program exited but something it left held its output, which was then abandoned.
    private(set) var outputAbandoned = false
    /// The program exited normally leaving processes in its group, which were then stopped.
    private(set) var leftoversStopped = false
    private var teardown = Teardown.none
    private var reaped = false
    private var notStarted = false
    private var complete = false
    private var lingeringEnded = false

    /// Whether the program may (still) be started: no stop was asked for.
    var mayStart: Bool { pid == nil && !notStarted && stopReason == nil }

    /// Whether the program's input is no longer wanted (it ended or is being stopped).
    var isEnding: Bool { reaped || teardown != .none || stopReason != nil }

    /// The group to look for processes the program left, once the run completes: when it ran, was reaped and
    /// no stop is under way (`completed(groupRemains:)` takes the answer).
    var groupToCheckAtCompletion: Int32? { reaped && teardown == .none ? pid : nil }

    mutating func started(pid: Int32) -> [Action] {
        self.pid = pid
        return stopReason == nil ? [] : beginTeardown()
    }

    /// It could not be started, or was not because a stop came first.
    mutating func failedToStart() -> [Action] {
        notStarted = true
        return endLingeringIfOver()
    }

    mutating func stop(_ reason: StopReason) -> [Action] {
        guard !complete, stopReason == nil, teardown == .none, !notStarted else { return [] }
        stopReason = reason
        return pid == nil ? [] : beginTeardown()  // not started yet: `mayStart` now says no
    }

    /// `termination` is nil when it was reaped elsewhere.
    mutating func reaped(_ termination: ChildProcess.Termination?) -> [Action] {
        self.termination = termination
        reaped = true
        switch teardown {
        case .none: return [.scheduleOutputCheck]
        case .terminating, .killing: return [.pollGroup]
        case .over: return endLingeringIfOver()
        }
    }

    /// The program exited a grace period ago; something it left may hold its stdout or stderr open.
    mutating func exitGraceElapsed(outputOpen: Bool) -> [Action] {
        guard outputOpen, !complete, teardown == .none else { return [] }
        outputAbandoned = true
        return beginTeardown()
    }

    /// A grace period after SIGTERM.
    mutating func graceElapsed() -> [Action] {
        switch teardown {
        case .terminating:
            teardown = .killing
            return [.signal(SIGKILL, group: pid ?? 0, alsoLeader: !reaped), .scheduleGiveUp]
        case .over where !complete:
            return [.scheduleGiveUp]  // the group is gone, yet something outside it may hold the output
        case .none, .killing, .over:
            return []
        }
    }

    /// A grace period after SIGKILL.
    mutating func giveUpElapsed() -> [Action] {
        var actions: [Action] = complete ? [] : [.closeOutput]
        if teardown == .killing {
            teardown = .over
            actions.append(.abandonGroup)
            actions += endLingeringIfOver()
        }
        return actions
    }

    mutating func groupPolled(exists: Bool) -> [Action] {
        guard teardown == .terminating || teardown == .killing else { return [] }
        if exists { return [.pollGroup] }
        teardown = .over
        return endLingeringIfOver()
    }

    /// The run is complete: the program was reaped (or never started), its output closed, its input fed.
    /// - Parameter groupRemains: whether processes it left are still in its group (asked only when no stop
    ///   is under way): they are stopped too, so that nothing the run started outlives it.
    mutating func completed(groupRemains: Bool) -> [Action] {
        complete = true
        guard groupRemains, teardown == .none, pid != nil else { return endLingeringIfOver() }
        leftoversStopped = true
        return beginTeardown()
    }

    private mutating func beginTeardown() -> [Action] {
        guard teardown == .none, let pid else { return [] }
        teardown = .terminating
        var actions: [Action] = [.signal(SIGTERM, group: pid, alsoLeader: !reaped), .scheduleEscalation]
        if reaped {
            if !complete { actions.append(.closeOutput) }  // the program is gone; what holds the pipes is not
            actions.append(.pollGroup)
        }
        return actions
    }

    private mutating func endLingeringIfOver() -> [Action] {
        let over = switch teardown {
        case .none: complete || notStarted
        case .terminating, .killing: false
        case .over: true
        }
        guard over, !lingeringEnded else { return [] }
        lingeringEnded = true
        return [.endLingering]
    }
}
