import CProcessSpawn
import Dispatch
import Foundation
@testable import ProviderTesting
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test helpers start programs as the product does, a busy file (ETXTBSY) included: a script a test writes
/// and runs at once may be held open for writing by the child of a concurrent spawn.
@Suite("ProcessRunner: a busy file is tried again")
struct ProcessRunnerTests {
    @Test("a script held open for writing by another process runs once that process lets it go")
    func retriedAfterBusy() async throws {
        let script = try Self.script()
        let holder = try await Holder.start(holding: script.path)
        let (spawned, waits) = try await blocking {
            var waits: [Double] = []
            let spawned = try ProcessRunner.spawn(script, [], environment: [:]) { delay in
                waits.append(delay)
                holder.release()
                return ProcessRunner.pause(delay)
            }
            return (spawned, waits)
        }
        close(spawned.stdout)
        close(spawned.stderr)
        #expect(waits.first == ProcessRunner.busyRetryDelays[0])
        #expect(await onOwnThread { ProcessRunner.waitForExit(spawned.pid).status } == 3)
    }

    @Test("a script that stays busy fails with an error naming it, after every retry")
    func staysBusy() async throws {
        let script = try Self.script()
        let holder = try await Holder.start(holding: script.path)
        defer { holder.release() }
        let error = await #expect(throws: ProcessRunner.SpawnError.self) {
            try await ProcessRunner.run(script, [], environment: [:])
        }
        let tries = ProcessRunner.busyRetryDelays.count + 1
        #expect(error?.description
            == "posix_spawn \(script.path): Text file busy (tried \(tries) times: something still holds it open for writing)")
    }

    /// An executable script that exits 3.
    private static func script() throws -> URL {
        let file = try ScratchDirectory.make("runner").appendingPathComponent("busy.sh")
        try Data("#!/bin/sh\nexit 3\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        return file
    }
}

/// A shell that opens a file for writing, says so, and keeps it open until it reads a line (`release`), then
/// exits; `release` returns once it was reaped.
private final class Holder: Sendable {
    private let pid: pid_t
    private let input: Mutex<Int32?>

    private init(pid: pid_t, input: Int32) {
        self.pid = pid
        self.input = Mutex(input)
    }

    static func start(holding path: String) async throws -> Holder {
        var stdin: [Int32] = [-1, -1]
        try #require(aggregate_pipe(&stdin) == 0)
        let spawned = try ProcessRunner.spawn(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "exec 3>>\"$1\"; echo held; read line", "sh", path],
            environment: [:], stdin: stdin[0])
        close(stdin[0])
        close(spawned.stderr)
        let holder = Holder(pid: spawned.pid, input: stdin[1])
        // Its word means the file is open; read on a thread of its own (a blocking read).
        let said = await onOwnThread { () -> String in
            defer { close(spawned.stdout) }
            var bytes: [UInt8] = []
            var byte: UInt8 = 0
            while bytes.count < 16, read(spawned.stdout, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard said == "held" else {
            holder.release()
            throw ProcessRunner.SpawnError(description: "the holder did not open '\(path)'")
        }
        return holder
    }

    /// Lets the file go and reaps the shell; only the first call does anything.
    func release() {
        guard let descriptor = input.withLock({ $0.take() }) else { return }
        _ = write(descriptor, "\n", 1)
        close(descriptor)
        _ = ProcessRunner.waitForExit(pid)
    }
}
