@testable import ExecProvider
import Foundation
import ProviderTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting a script that is still open for writing fails with ETXTBSY ("text file busy"), as it does for a
/// moment after a script is written; the start is tried again after waiting, unless the wait says no.
@Suite("Starting a program: ETXTBSY is retried", .disabled(if: threadSanitizerIsActive, skippedUnderThreadSanitizer))
struct ChildProcessTests {
    @Test("a script busy at the first try starts once the writer closes it")
    func retriedAfterBusy() async throws {
        let scripts = try ScriptDirectory()
        let (launch, writer) = try busyScript(in: scripts)
        var waits: [Double] = []
        let started = ChildProcess.spawn(launch) { delay in
            waits.append(delay)
            try? writer.close()  // what the other process holding it would do meanwhile
            return true
        }
        let pid = try started.get()
        #expect(waits == [ChildProcess.busyRetryDelays[0]])
        #expect(await onOwnThread { ChildProcess.reap(pid) } == .exited(status: 3))
    }

    @Test("a stop during the wait gives the start up, as busy")
    func givenUp() throws {
        let scripts = try ScriptDirectory()
        let (launch, writer) = try busyScript(in: scripts)
        defer { try? writer.close() }
        let started = ChildProcess.spawn(launch) { _ in false }
        #expect(started == .failure(ChildProcess.Failure(code: ETXTBSY)))
    }

    /// A script that exits 3, still open for writing (the returned handle), and how to start it.
    private func busyScript(in scripts: ScriptDirectory) throws -> (ChildProcess.Launch, FileHandle) {
        let name = try scripts.script("busy.sh", "exit 3")
        let path = scripts.path(String(name.dropFirst(2)))
        let writer = try #require(FileHandle(forWritingAtPath: path))
        let launch = ChildProcess.Launch(
            executable: path, arguments: [], environment: [:], directory: scripts.url.path, stdin: nil,
            stdout: FileHandle.standardError.fileDescriptor, stderr: FileHandle.standardError.fileDescriptor)
        return (launch, writer)
    }
}
