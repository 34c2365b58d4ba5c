import CProcessSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program a test talks to while it runs (`aggregate watch`): wait for something on its stdout or
/// stderr, send it a signal, then collect how it ended. Pipes are read on threads of their own; waits
/// suspend (an event from the reader), never sleep.
///
/// Started as `ProcessRunner` starts programs (`posix_spawn`, its own process group, every signal unblocked
/// and at its default action): a program started with Foundation's `Process` from a test's thread inherits
/// that thread's signal mask, in which Dispatch blocks SIGTERM, so it never heard `signal(SIGTERM)` and
/// `finish()` waited for ever (the SMTP test server did).
public final class LiveProcess: Sendable {
    private struct Waiter {
        var id: Int
        var predicate: @Sendable (_ stdout: String, _ stderr: String) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var stdout = Data()
        var stderr = Data()
        var openPipes = 2
        var waiters: [Waiter] = []
        var nextWaiter = 0
        /// The exit status and context switches, once the process was reaped.
        var exit: (status: Int32, switches: Int)?
    }

    /// The process's id.
    public let processIdentifier: Int32
    private let input: FileHandle?
    private let state = Mutex(State())
    /// Left once the process exited and was reaped (on a thread of its own, from the start).
    private let exited = DispatchGroup()

    private init(pid: Int32, input: FileHandle?) {
        self.processIdentifier = pid
        self.input = input
    }

    /// Starts `executable`; its stdin is /dev/null, or a pipe that `send` writes to.
    ///
    /// A busy file (ETXTBSY) is tried again as `ProcessRunner` does, waiting on the calling thread: bounded
    /// (about 3 s in all) and only ever on that path, which the built binaries and system programs started
    /// here do not take unless something writes them meanwhile.
    public static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String], withInput: Bool = false
    ) throws -> LiveProcess {
        var stdin: [Int32] = [-1, -1]
        if withInput, aggregate_pipe(&stdin) != 0 { throw ProcessRunner.SpawnError(description: "pipe: \(errno)") }
        defer { if stdin[0] >= 0 { close(stdin[0]) } }
        let spawned: (pid: pid_t, stdout: Int32, stderr: Int32)
        do {
            spawned = try ProcessRunner.spawn(executable, arguments, environment: environment, stdin: stdin[0])
        } catch {
            if stdin[1] >= 0 { close(stdin[1]) }
            throw error
        }
        let live = LiveProcess(
            pid: spawned.pid, input: withInput ? FileHandle(fileDescriptor: stdin[1], closeOnDealloc: true) : nil)
        live.exited.enter()
        Thread { [live] in
            let exit = ProcessRunner.waitForExit(live.processIdentifier)
            live.state.withLock { $0.exit = exit }
            live.exited.leave()
        }.start()
        live.drain(spawned.stdout, into: \.stdout)
        live.drain(spawned.stderr, into: \.stderr)
        return live
    }

    /// Suspends until `predicate` holds for what the program printed so far (stdout, stderr); false when its
    /// output ended first, or when the waiting task is cancelled (so a test can wait on several programs at once
    /// and call off the others' waits).
    public func waitFor(_ predicate: @escaping @Sendable (_ stdout: String, _ stderr: String) -> Bool) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    if predicate(Self.text(state.stdout), Self.text(state.stderr)) { return true }
                    // A cancel that came before this finds no waiter to remove: the task's flag is set by then.
                    if state.openPipes == 0 || Task.isCancelled { return false }
                    state.waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                state.waiters.firstIndex(where: { $0.id == id }).map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    /// What the program printed on stdout so far.
    public var standardOutput: String { state.withLock { Self.text($0.stdout) } }

    /// Writes `text` to the program's stdin (started `withInput`).
    public func send(_ text: String) {
        try? input?.write(contentsOf: Data(text.utf8))
    }

    /// Sends the signal `number` (`SIGINT`, `SIGTERM`, …) to the process.
    public func signal(_ number: Int32) {
        kill(processIdentifier, number)
    }

    /// Waits for the program to exit and its output to end.
    public func finish() async -> ProcessResult {
        _ = await waitFor { _, _ in false }  // returns at the end of both pipes
        await onOwnThread { [exited] in exited.wait() }
        return state.withLock { state in
            ProcessResult(status: state.exit?.status ?? -1, stdout: Self.text(state.stdout), stderr: Self.text(state.stderr),
                          voluntaryContextSwitches: state.exit?.switches ?? 0)
        }
    }

    private func drain(_ descriptor: Int32, into stream: WritableKeyPath<State, Data> & Sendable) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                let chunk = count > 0 ? Data(buffer[0..<count]) : Data()
                let ready: [(CheckedContinuation<Bool, Never>, Bool)] = state.withLock { state in
                    if chunk.isEmpty { state.openPipes -= 1 } else { state[keyPath: stream].append(chunk) }
                    let stdout = Self.text(state.stdout), stderr = Self.text(state.stderr)
                    var ready: [(CheckedContinuation<Bool, Never>, Bool)] = []
                    state.waiters.removeAll { waiter in
                        if waiter.predicate(stdout, stderr) {
                            ready.append((waiter.continuation, true))
                            return true
                        }
                        if state.openPipes == 0 {
                            ready.append((waiter.continuation, false))
                            return true
                        }
                        return false
                    }
                    return ready
                }
                for (continuation, answer) in ready { continuation.resume(returning: answer) }
                if chunk.isEmpty {
                    close(descriptor)
                    return
                }
            }
        }
        thread.start()
    }

    private static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}
