@testable import Processes
import Dispatch
import Domain
import Foundation
import ProviderTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting a script that is still open for writing fails with ETXTBSY ("text file busy"), as it does for a
/// moment after a script is written while another thread spawns; the start is tried again after waiting,
/// unless the wait says no. Here another process holds the script open, as the child of a concurrent spawn does.
@Suite("Starting a program: ETXTBSY is retried")
struct ChildProcessTests {
    @Test("a script held open for writing by another process starts once that process lets it go")
    func retriedAfterBusy() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let name = try scripts.script("busy.sh", "exit 3")
        let holder = try await BusyFileHolder.start(holding: scripts.path(String(name.dropFirst(2))))
        // As the product does, on a thread of its own; the first wait is where the holder is let go (and
        // reaped: its copy of the descriptor is closed by then), so the next try finds the file free, unless
        // another test's concurrent spawn holds a copy of its own for a moment: then it takes one more.
        let (started, waits) = await onOwnThread {
            var waits: [Double] = []
            let started = ChildProcess.spawn(launch(scripts.path("busy.sh"), in: scripts)) { delay in
                waits.append(delay)
                holder.release()
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + delay)
                return true
            }
            return (started, waits)
        }
        let pid = try started.get()
        #expect(waits.first == ChildProcess.busyRetryDelays[0])
        #expect(await onOwnThread { ChildProcess.reap(pid) } == .exited(status: 3))
    }

    @Test("a stop during the wait gives the start up, as busy")
    func givenUp() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let name = try scripts.script("busy.sh", "exit 3")
        let holder = try await BusyFileHolder.start(holding: scripts.path(String(name.dropFirst(2))))
        defer { holder.release() }
        let started = ChildProcess.spawn(launch(scripts.path("busy.sh"), in: scripts)) { _ in false }
        #expect(started == .failure(ChildProcess.Failure(code: ETXTBSY, tries: 1)))
    }

    @Test("a script that stays busy fails the source, naming the program and why, after every retry")
    func staysBusy() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("busy.sh", "echo '{\"type\":\"item\",\"id\":\"x\",\"title\":\"x\"}'")
        let holder = try await BusyFileHolder.start(holding: scripts.path(String(program.dropFirst(2))))
        defer { holder.release() }
        // The product's own waits (about 3 s in all), bounded well inside the run's deadline.
        let result = await stream(ExecCommand(sourceID: "busy", argv: [program], baseDirectory: scripts.url), timeout: 60)
        let tries = ChildProcess.busyRetryDelays.count + 1
        #expect(result.error == SourceError(
            .io, "could not start './busy.sh': Text file busy (tried \(tries) times: something still holds the file open for writing)"))
        #expect(result.records.isEmpty)
    }

    private func launch(_ path: String, in scripts: ScratchDirectory.Folder) -> ChildProcess.Launch {
        ChildProcess.Launch(
            executable: path, arguments: [], environment: [:], directory: scripts.url.path, stdin: nil,
            stdout: STDERR_FILENO, stderr: STDERR_FILENO)
    }
}
