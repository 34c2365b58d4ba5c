@testable import Processes
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The program lifecycle's transitions, driven by hand: no process, thread or clock.
@Suite("Program lifecycle: when to signal, poll and let the run go")
struct ProgramLifecycleTests {
    private let pid: Int32 = 4242

    @Test("a program that finishes alone ends its lingering work when the run completes, never signalled")
    func normalExit() {
        var life = ProgramLifecycle()
        #expect(life.mayStart)
        #expect(life.started(pid: pid) == [])
        #expect(life.reaped(.exited(status: 0)) == [.scheduleOutputCheck])
        #expect(life.groupToCheckAtCompletion == pid)
        #expect(life.exitGraceElapsed(outputOpen: false) == [])
        #expect(life.completed(groupRemains: false) == [.endLingering])
        #expect(life.termination == .exited(status: 0))
        #expect(life.stopReason == nil)
    }

    @Test("a timeout: SIGTERM, then polls once reaped; the group gone ends the lingering work, not the completion")
    func timeout() {
        var life = ProgramLifecycle()
        _ = life.started(pid: pid)
        #expect(life.stop(.timeout) == [.signal(SIGTERM, group: pid, alsoLeader: true), .scheduleEscalation])
        #expect(life.stop(.cancelled) == [])  // the first reason stands
        #expect(life.reaped(.signalled(SIGTERM)) == [.pollGroup])
        #expect(life.groupToCheckAtCompletion == nil)
        #expect(life.completed(groupRemains: false) == [])
        #expect(life.groupPolled(exists: true) == [.pollGroup])
        #expect(life.groupPolled(exists: false) == [.endLingering])
        #expect(life.graceElapsed() == [])  // gone before the grace period: no SIGKILL
        #expect(life.stopReason == .timeout)
    }

    @Test("a group still there a grace period after SIGTERM gets SIGKILL, and is awaited")
    func stubborn() {
        var life = ProgramLifecycle()
        _ = life.started(pid: pid)
        _ = life.stop(.outputCap)
        #expect(life.graceElapsed() == [.signal(SIGKILL, group: pid, alsoLeader: true), .scheduleGiveUp])
        #expect(life.reaped(.signalled(SIGKILL)) == [.pollGroup])
        #expect(life.groupPolled(exists: true) == [.pollGroup])
        #expect(life.groupPolled(exists: false) == [.endLingering])
        #expect(life.giveUpElapsed() == [.closeOutput])  // output held from outside the group is let go
        #expect(life.completed(groupRemains: false) == [])
    }

    @Test("a group that outlives SIGKILL by a grace period is given up on, once")
    func giveUp() {
        var life = ProgramLifecycle()
        _ = life.started(pid: pid)
        _ = life.stop(.timeout)
        _ = life.graceElapsed()
        _ = life.reaped(.signalled(SIGKILL))
        #expect(life.groupPolled(exists: true) == [.pollGroup])
        #expect(life.giveUpElapsed() == [.closeOutput, .abandonGroup, .endLingering])
        #expect(life.groupPolled(exists: true) == [])  // polling stops
        #expect(life.completed(groupRemains: false) == [])
    }

    @Test("a stop before the start keeps the program from starting; nothing is left to wait for")
    func stopBeforeStart() {
        var life = ProgramLifecycle()
        #expect(life.stop(.cancelled) == [])
        #expect(!life.mayStart)
        #expect(life.failedToStart() == [.endLingering])
        #expect(life.completed(groupRemains: false) == [])
        #expect(life.stopReason == .cancelled)
    }

    @Test("a stop while the program was being started stops it as soon as it runs")
    func stopDuringStart() {
        var life = ProgramLifecycle()
        #expect(life.mayStart)  // the starter looked, then the stop came
        #expect(life.stop(.cancelled) == [])
        #expect(life.started(pid: pid) == [.signal(SIGTERM, group: pid, alsoLeader: true), .scheduleEscalation])
    }

    @Test("a program that could not start ends its lingering work at once")
    func failedToStart() {
        var life = ProgramLifecycle()
        #expect(life.failedToStart() == [.endLingering])
        #expect(life.stop(.timeout) == [])
        #expect(life.stopReason == nil)
    }

    @Test("output still open a grace period after the exit is abandoned and the group stopped; a later stop changes nothing")
    func abandonedOutput() {
        var life = ProgramLifecycle()
        _ = life.started(pid: pid)
        _ = life.reaped(.exited(status: 0))
        #expect(life.exitGraceElapsed(outputOpen: true)
            == [.signal(SIGTERM, group: pid, alsoLeader: false), .scheduleEscalation, .closeOutput, .pollGroup])
        #expect(life.outputAbandoned)
        #expect(life.stop(.timeout) == [])
        #expect(life.stopReason == nil)
        #expect(life.completed(groupRemains: true) == [])  // the stop under way covers the group
        #expect(!life.leftoversStopped)
        #expect(life.groupPolled(exists: false) == [.endLingering])
    }

    @Test("a stop after the exit signals the group (not the reaped program) and lets the output go")
    func stopAfterExit() {
        var life = ProgramLifecycle()
        _ = life.started(pid: pid)
        _ = life.reaped(.exited(status: 0))
        #expect(life.stop(.timeout)
            == [.signal(SIGTERM, group: pid, alsoLeader: false), .scheduleEscalation, .closeOutput, .pollGroup])
    }

    @Test("processes a normally finished program left in its group are stopped and awaited after the completion")
    func leftovers() {
        var life = ProgramLifecycle()
        _ = life.started(pid: pid)
        _ = life.reaped(.exited(status: 0))
        #expect(life.completed(groupRemains: true)
            == [.signal(SIGTERM, group: pid, alsoLeader: false), .scheduleEscalation, .pollGroup])
        #expect(life.leftoversStopped)
        #expect(life.stop(.cancelled) == [])  // complete: nothing more to stop
        #expect(life.graceElapsed() == [.signal(SIGKILL, group: pid, alsoLeader: false), .scheduleGiveUp])
        #expect(life.groupPolled(exists: false) == [.endLingering])
        #expect(life.giveUpElapsed() == [])
    }

    @Test("the program's input is given up once it is reaped or being stopped")
    func inputGivenUp() {
        var running = ProgramLifecycle()
        _ = running.started(pid: pid)
        #expect(!running.isEnding)
        var stopped = running
        _ = stopped.stop(.outputCap)
        #expect(stopped.isEnding)
        _ = running.reaped(.exited(status: 1))
        #expect(running.isEnding)
    }
}
