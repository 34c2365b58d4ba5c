import Foundation
import Synchronization

/// A program a test talks to while it runs (`aggregate watch`): wait for something on its stdout or
/// stderr, send it a signal, then collect how it ended. Pipes are read on threads of their own; waits
/// suspend (an event from the reader), never sleep.
public final class LiveProcess: Sendable {
    private struct Waiter {
        var predicate: @Sendable (_ stdout: String, _ stderr: String) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var stdout = Data()
        var stderr = Data()
        var openPipes = 2
        var waiters: [Waiter] = []
    }

    private let process: Process
    private let input: FileHandle?
    private let state = Mutex(State())
    private let exited = DispatchGroup()

    private init(process: Process, input: FileHandle?) {
        self.process = process
        self.input = input
    }

    /// Starts `executable`; its stdin is /dev/null, or a pipe that `send` writes to.
    public static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String], withInput: Bool = false
    ) throws -> LiveProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let stdin = withInput ? Pipe() : nil
        process.standardInput = stdin ?? FileHandle.nullDevice
        let live = LiveProcess(process: process, input: stdin?.fileHandleForWriting)
        live.exited.enter()
        process.terminationHandler = { [exited = live.exited] _ in exited.leave() }
        try process.run()
        live.read(stdout.fileHandleForReading, into: \.stdout)
        live.read(stderr.fileHandleForReading, into: \.stderr)
        return live
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// Suspends until `predicate` holds for what the program printed so far (stdout, stderr); false when its
    /// output ended first.
    public func waitFor(_ predicate: @escaping @Sendable (_ stdout: String, _ stderr: String) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer: Bool? = state.withLock { state in
                if predicate(Self.text(state.stdout), Self.text(state.stderr)) { return true }
                if state.openPipes == 0 { return false }
                state.waiters.append(Waiter(predicate: predicate, continuation: continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// What the program printed on stdout so far.
    public var standardOutput: String { state.withLock { Self.text($0.stdout) } }

    /// Writes `text` to the program's stdin (started `withInput`).
    public func send(_ text: String) {
        try? input?.write(contentsOf: Data(text.utf8))
    }

    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the program to exit and its output to end.
    public func finish() async -> ProcessResult {
        _ = await waitFor { _, _ in false }  // returns at the end of both pipes
        await onOwnThread { [exited] in exited.wait() }
        let (stdout, stderr) = state.withLock { (Self.text($0.stdout), Self.text($0.stderr)) }
        return ProcessResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    private func read(_ handle: FileHandle, into stream: WritableKeyPath<State, Data> & Sendable) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
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
                if chunk.isEmpty { return }
            }
        }
        thread.start()
    }

    private static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}
