@testable import Processes
import Dispatch
import Domain
import Foundation
import ProviderTesting
import Synchronization
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
        let holder = try await Holder.start(holding: scripts.path(String(name.dropFirst(2))), in: scripts)
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
        let holder = try await Holder.start(holding: scripts.path(String(name.dropFirst(2))), in: scripts)
        defer { holder.release() }
        let started = ChildProcess.spawn(launch(scripts.path("busy.sh"), in: scripts)) { _ in false }
        #expect(started == .failure(ChildProcess.Failure(code: ETXTBSY, tries: 1)))
    }

    @Test("a script that stays busy fails the source, naming the program and why, after every retry")
    func staysBusy() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("busy.sh", "echo '{\"type\":\"item\",\"id\":\"x\",\"title\":\"x\"}'")
        let holder = try await Holder.start(holding: scripts.path(String(program.dropFirst(2))), in: scripts)
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

/// A shell that opens a file for writing, says so, and keeps it open until it reads a line (`release`),
/// then exits; `release` returns once it was reaped.
private final class Holder: Sendable {
    private let pid: pid_t
    private let input: Mutex<Int32?>

    private init(pid: pid_t, input: Int32) {
        self.pid = pid
        self.input = Mutex(input)
    }

    static func start(holding path: String, in scripts: ScratchDirectory.Folder) async throws -> Holder {
        let stdin = try ChildProcess.pipeDescriptors()
        let stdout = try ChildProcess.pipeDescriptors()
        let launch = ChildProcess.Launch(
            executable: "/bin/sh", arguments: ["-c", "exec 3>>\"$1\"; echo held; read line", "sh", path],
            environment: [:], directory: scripts.url.path, stdin: stdin.read, stdout: stdout.write, stderr: STDERR_FILENO)
        let spawned = ChildProcess.spawn(launch) { _ in false }
        close(stdin.read)
        close(stdout.write)
        let pid: pid_t
        do {
            pid = try spawned.get()
        } catch {
            close(stdin.write)
            close(stdout.read)
            throw error
        }
        let holder = Holder(pid: pid, input: stdin.write)
        // Waits for its word (the file is open by then), on a thread of its own: a blocking read.
        let said = await onOwnThread { () -> String in
            defer { close(stdout.read) }
            var bytes: [UInt8] = []
            var byte: UInt8 = 0
            while bytes.count < 16, read(stdout.read, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard said == "held" else {
            holder.release()
            throw Failure(description: "the holder did not open '\(path)'")
        }
        return holder
    }

    /// Lets the file go and reaps the shell; only the first call does anything.
    func release() {
        guard let descriptor = input.withLock({ $0.take() }) else { return }
        _ = write(descriptor, "\n", 1)
        close(descriptor)
        _ = ChildProcess.reap(pid)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
