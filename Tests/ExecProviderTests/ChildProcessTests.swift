@testable import Processes
import Dispatch
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
/// moment after a script is written; the start is tried again after waiting, unless the wait says no.
@Suite("Starting a program: ETXTBSY is retried")
struct ChildProcessTests {
    @Test("a script busy at the first try starts once the writer closes it")
    func retriedAfterBusy() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let (launch, writer) = try busyScript(in: scripts)
        // As the product does: wait on a clock on a thread of its own, here after closing the writer (what
        // the other process holding the script would do meanwhile). Another test's spawn may hold a copy for
        // a moment too, so it may take more than one retry.
        let (started, waits) = await onOwnThread {
            var waits: [Double] = []
            let started = ChildProcess.spawn(launch) { delay in
                waits.append(delay)
                writer.closeOnce()
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
    func givenUp() throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let (launch, writer) = try busyScript(in: scripts)
        defer { writer.closeOnce() }
        let started = ChildProcess.spawn(launch) { _ in false }
        #expect(started == .failure(ChildProcess.Failure(code: ETXTBSY)))
    }

    /// A script that exits 3, still open for writing (the returned writer), and how to start it.
    private func busyScript(in scripts: ScratchDirectory.Folder) throws -> (ChildProcess.Launch, Writer) {
        let name = try scripts.script("busy.sh", "exit 3")
        let path = scripts.path(String(name.dropFirst(2)))
        let writer = Writer(open(path, O_WRONLY | O_CLOEXEC))
        let launch = ChildProcess.Launch(
            executable: path, arguments: [], environment: [:], directory: scripts.url.path, stdin: nil,
            stdout: STDERR_FILENO, stderr: STDERR_FILENO)
        return (launch, writer)
    }
}

/// A descriptor open for writing, closed once however often `closeOnce()` is called.
private final class Writer: Sendable {
    private let descriptor: Mutex<Int32?>

    init(_ descriptor: Int32) {
        self.descriptor = Mutex(descriptor >= 0 ? descriptor : nil)
    }

    func closeOnce() {
        if let descriptor = descriptor.withLock({ $0.take() }) { close(descriptor) }
    }
}
