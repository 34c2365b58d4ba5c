import CProcessSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Another process holding a file open for writing, so that starting the file as a program fails with ETXTBSY
/// ("text file busy") until `release()`: what the child of a concurrent spawn does for a moment to a script just
/// written. A shell that opens the file, says so, and keeps it open until it reads a line.
public final class BusyFileHolder: Sendable {
    private let pid: pid_t
    private let input: Mutex<Int32?>

    private init(pid: pid_t, input: Int32) {
        self.pid = pid
        self.input = Mutex(input)
    }

    /// Starts the holder and returns once the file at `path` is open for writing.
    /// - Throws: `ProcessRunner.SpawnError` when the shell could not be started or did not open the file.
    public static func start(holding path: String) async throws -> BusyFileHolder {
        var stdin: [Int32] = [-1, -1]
        guard aggregate_pipe(&stdin) == 0 else { throw ProcessRunner.SpawnError(description: "pipe: \(errno)") }
        let spawned: (pid: pid_t, stdout: Int32, stderr: Int32)
        do {
            spawned = try ProcessRunner.spawn(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "exec 3>>\"$1\"; echo held; read line", "sh", path],
                environment: [:], stdin: stdin[0])
        } catch {
            close(stdin[0])
            close(stdin[1])
            throw error
        }
        close(stdin[0])
        close(spawned.stderr)
        let holder = BusyFileHolder(pid: spawned.pid, input: stdin[1])
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

    /// Lets the file go and reaps the shell, returning once it is gone; only the first call does anything.
    public func release() {
        guard let descriptor = input.withLock({ $0.take() }) else { return }
        _ = write(descriptor, "\n", 1)
        close(descriptor)
        _ = ProcessRunner.waitForExit(pid)
    }
}
