import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Carrying out what `ProgramLifecycle` decides: signals, timers, group polls and the end of the lingering
/// work. Every action runs outside the state's lock.
extension ProgramRun {
    /// How often a stopped program's process group is checked for being gone.
    static let groupPollInterval = 0.02

    func stop(_ reason: ProgramLifecycle.StopReason) {
        let actions = state.withLock { $0.lifecycle.stop(reason) }
        retryWake.signal()  // a start waiting to retry after ETXTBSY gives up at once
        if !actions.isEmpty { logger.debug("stopping \(command.programName) (\(reason))") }
        perform(actions)
    }

    func perform(_ actions: [ProgramLifecycle.Action]) {
        for action in actions {
            switch action {
            case .signal(let signal, let group, let alsoLeader):
                if signal == SIGKILL { logger.debug("\(command.programName) is still running; sending SIGKILL") }
                ChildProcess.signal(signal, group: group, alsoLeader: alsoLeader)
            case .closeOutput:
                stopReading()
            case .scheduleEscalation:
                after(gracePeriod) { $0.graceElapsed() }
            case .scheduleGiveUp:
                after(gracePeriod) { $0.giveUpElapsed() }
            case .scheduleOutputCheck:
                clock.wake(after: gracePeriod) { [self] in
                    // Open outputs with no writer left only mean the reader is behind: it reaches their end.
                    let reader = state.withLock { $0.openOutputs > 0 ? $0.reader : nil }
                    let held = reader?.writersRemain() ?? false
                    perform(state.withLock { $0.lifecycle.exitGraceElapsed(outputOpen: held && $0.openOutputs > 0) })
                }
            case .pollGroup:
                // Real time, whatever the run's clock: a process group's end sends no event, so this polls the
                // system, and a test's clock standing still must not stop it.
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.groupPollInterval) { [self] in
                    guard let pid = state.withLock({ $0.lifecycle.pid }) else { return }
                    let exists = ChildProcess.groupExists(pid)
                    perform(state.withLock { $0.lifecycle.groupPolled(exists: exists) })
                }
            case .abandonGroup:
                let pid = state.withLock { $0.lifecycle.pid } ?? 0
                logger.warning(
                    "process group \(pid) of \(command.programName) outlived SIGKILL by \(gracePeriod) s; no longer waiting for it")
            case .endLingering:
                state.withLock { $0.endLingering.take() }?()
            }
        }
    }

    /// `event` on the lifecycle a grace period from now, then its actions. The run stays alive until then:
    /// a stop must be carried through even when nothing else holds the run.
    private func after(
        _ seconds: Double, _ event: @escaping @Sendable (inout ProgramLifecycle) -> [ProgramLifecycle.Action]
    ) {
        clock.wake(after: seconds) { [self] in
            perform(state.withLock { event(&$0.lifecycle) })
        }
    }
}
