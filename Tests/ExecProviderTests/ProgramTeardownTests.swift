import Domain
import ExecProvider
import Foundation
import ProviderTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Programs start able to be stopped, and a stopped program's whole process group is gone by the time the
/// run completes: checked by pid and process group (`kill(-pgid, 0)` fails with ESRCH), never by name, and
/// at once when the completion arrives, without waiting.
@Suite("Exec programs: default signals, own process group, gone before the run completes")
struct ProgramTeardownTests {
    /// `sed` itself is the program, so what it reads is what it was started with (a shell could change it).
    @Test("a program starts with no signal blocked and none ignored, though it is started from a Dispatch thread")
    func defaultSignals() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let toItems = #"s/^\(Sig[A-Za-z]*\):[[:space:]]*\([0-9a-f]*\)$/{"type":"item","id":"\1","title":"\2"}/p"#
        let report = await run(try makeSource(["command": ["sed", "-n", .string(toItems), "/proc/self/status"]], in: scripts.url))
        #expect(report.status == .ok, "\(String(describing: report.error))")
        let masks = Dictionary(uniqueKeysWithValues: report.items.map { ($0.id, $0.title) })
        #expect(masks["SigBlk"] == "0000000000000000")
        #expect(masks["SigIgn"] == "0000000000000000")
    }

    @Test("a program leads a process group of its own")
    func ownGroup() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let report = await run(try makeSource(
            ["command": ["sh", "-c", .string(recordIDs + #"\#necho '{"type":"item","id":"done","title":"done"}'"#)]],
            in: scripts.url))
        #expect(report.status == .ok, "\(String(describing: report.error))")
        let ids = try #require(await scripts.ids())
        #expect(ids.pgid == ids.pid)
        #expect(ids.pgid != getpgrp())
    }

    /// A program holding the write end of another run's output pipe would keep that run from ever seeing its
    /// end. Python lists its own descriptors, those still open once the listing is done (its directory's is
    /// not); a shell would show copies it keeps for itself.
    @Test("a program has only stdin, stdout and stderr open, nothing else of ours")
    func onlyStandardDescriptors() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let inherited = open("/dev/null", O_RDONLY)  // not close-on-exec: only the spawn can keep it out
        defer { close(inherited) }
        let listing = """
            import json, os
            fds = sorted(int(f) for f in os.listdir('/proc/self/fd') if os.path.exists('/proc/self/fd/' + f))
            print(json.dumps({'type': 'item', 'id': 'fds', 'title': ' '.join(map(str, fds))}))
            """
        let report = await run(try makeSource(["command": ["python3", "-c", .string(listing)]], in: scripts.url))
        #expect(inherited > 2)
        #expect(report.items.map(\.title) == ["0 1 2"], "\(String(describing: report.error))")
    }

    /// With SIGTERM ignored (by the shell and, inherited, by its children) only the SIGKILL a grace period
    /// later ends them.
    @Test("a timed-out program and everything it started are gone when the run completes, SIGTERM heeded or not",
          arguments: ["", "trap '' TERM"])
    func timeout(prelude: String) async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("slow.sh", "\(prelude)\nsleep 3600 &\nsleep 3600 &\n\(recordIDs)\nwait")  // two children that run until stopped
        let report = await run(try makeSource(["command": [.string(program)]], in: scripts.url, gracePeriod: 0.3), timeout: 1)
        #expect(!processGroupExists(try #require(await scripts.ids()).pgid))
        #expect(report.status == .timeout)
    }

    @Test("a cancelled program and everything it started are gone when its source is settled")
    func cancelled() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("waits.sh", "sleep 3600 &\nsleep 3600 &\n\(recordIDs)\nwait")  // two children that run until stopped
        let source = try makeSource(["command": [.string(program)]], in: scripts.url, gracePeriod: 0.5)
        let cancellation = CancellationToken()
        var group: pid_t?
        let outcome = try await loadUntilSettled(source, cancellation: cancellation) {
            group = try #require(await scripts.ids()).pgid  // it runs: now cancel
            cancellation.cancel()
        }
        #expect(!processGroupExists(try #require(group)))
        #expect(outcome == .timedOut(SourceError(.timeout, "'./waits.sh' was stopped: the source's time is up")))
    }

    @Test("a program over its output cap and everything it started are gone when the run completes")
    func outputCap() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("flood.sh", #"""
            sleep 3600 &  # stands in for a program that runs until stopped
            \#(recordIDs)
            while :; do echo '{"type":"item","id":"x","title":"flood"}'; done
            """#)
        let report = await run(try makeSource(
            ["command": [.string(program)], "maxOutputBytes": 1000], in: scripts.url, gracePeriod: 0.5))
        #expect(!processGroupExists(try #require(await scripts.ids()).pgid))
        #expect(report.error?.kind == .badResponse)
    }

    @Test("processes a program leaves running after a normal exit are stopped, with a warning, before the run completes")
    func leftovers() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("forks.sh", #"""
            sleep 3600 > /dev/null 2>&1 &  # stands in for a program that runs until stopped
            \#(recordIDs)
            echo '{"type":"item","id":"done","title":"done"}'
            """#)
        let report = await run(try makeSource(["command": [.string(program)]], in: scripts.url, gracePeriod: 0.5))
        #expect(!processGroupExists(try #require(await scripts.ids()).pgid))
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["done"])
        #expect(report.warnings == ["'./forks.sh' exited, but left processes running in its process group; they were stopped"])
    }

    @Test("a program killed by a signal fails the source, naming the signal")
    func killedBySignal() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("dies.sh", "echo 'going' >&2\nkill -KILL $$")
        let report = await run(try makeSource(["command": [.string(program)]], in: scripts.url))
        #expect(report.error == SourceError(.io, "'./dies.sh' was killed by signal 9: going"))
    }
}
