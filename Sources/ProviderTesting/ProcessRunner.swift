import CProcessSpawn
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a finished process printed and how it exited.
public struct ProcessResult: Sendable {
    /// The exit status, or the number of the signal that ended the process (as Foundation's `terminationStatus`).
    public var status: Int32
    /// Everything the process wrote to standard output, as UTF-8 (lossy).
    public var stdout: String
    /// Everything the process wrote to standard error, as UTF-8 (lossy).
    public var stderr: String
    /// How many times the process gave up the CPU to wait (its threads' voluntary context switches, from
    /// `wait4`): a count of wake-ups, which tells an idle wait from a busy loop without timing anything.
    public var voluntaryContextSwitches: Int

    /// A result as given (tests of code that reads one).
    public init(status: Int32, stdout: String, stderr: String, voluntaryContextSwitches: Int = 0) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.voluntaryContextSwitches = voluntaryContextSwitches
    }
}

/// Runs a program to completion from a test without blocking Swift concurrency: the blocking parts (pipe
/// reads, waiting for exit) run on threads of their own. On Linux the concurrency pool is Dispatch's global
/// threads; blocking one starves the tests around it.
///
/// It starts programs with `posix_spawn` (CProcessSpawn, as the exec provider does), not Foundation's
/// `Process`: in full parallel runs `Process.run()` crashed in about one run in three, always at the same
/// place (a `memcpy` inside `Process.run() + 6428` reading past a page), with or without the starts
/// serialised. The program gets a process group of its own, default signal handling and only its three
/// standard descriptors (stdin is /dev/null).
public enum ProcessRunner {
    /// The program could not be started (`posix_spawn` failed).
    public struct SpawnError: Error, CustomStringConvertible {
        /// Which program and why.
        public var description: String
    }

    /// - Parameters:
    ///   - executable: the program to run.
    ///   - arguments: its arguments, without the program's name.
    ///   - directory: its working directory (this process's when nil).
    ///   - environment: its whole environment.
    ///   - whileRunning: called with the pid once the process runs (to signal it); the run then waits for the exit
    ///     as usual. If it throws, the process is terminated and the error rethrown.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String],
        whileRunning: (pid_t) async throws -> Void = { _ in }
    ) async throws -> ProcessResult {
        // On a thread of its own: a busy file's retries wait there, not on a thread of the shared pool.
        let (child, outputFD, errorFD) = try await blocking {
            try spawn(executable, arguments, in: directory, environment: environment)
        }
        async let out = onOwnThread { readToEnd(outputFD) }
        async let err = onOwnThread { readToEnd(errorFD) }
        do {
            try await whileRunning(child)
        } catch {
            kill(child, SIGTERM)
            _ = await (out, err)
            _ = await onOwnThread { waitForExit(child) }
            throw error
        }
        let (outData, errData) = await (out, err)
        let (status, switches) = await onOwnThread { waitForExit(child) }
        return ProcessResult(
            status: status, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
            voluntaryContextSwitches: switches)
    }

    /// How long a start that failed with ETXTBSY waits before each further try, as the exec provider's
    /// `ChildProcess` does: a script written by a test just before it runs stays "busy" while the child of any
    /// concurrent spawn still holds a copy of the writer's descriptor, which on a loaded machine can take a
    /// while. About 3 s in all.
    static let busyRetryDelays: [Double] = [0.02, 0.05, 0.1, 0.2, 0.4, 0.8, 1.5]

    /// Starts `executable` with `posix_spawn` (its own process group, default signal handling and mask, stdin from
    /// `stdin` or /dev/null) and hands back its pid and the read ends of its stdout and stderr. A busy file
    /// (ETXTBSY) is tried again after each of `busyRetryDelays`, spent in `waitBeforeRetry` (which says whether
    /// to go on): it blocks the calling thread, so call this on a thread of its own.
    static func spawn(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String], stdin: Int32 = -1,
        waitBeforeRetry: (Double) -> Bool = ProcessRunner.pause
    ) throws -> (pid: pid_t, stdout: Int32, stderr: Int32) {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard aggregate_pipe(&output) == 0 else { throw SpawnError(description: "pipe: \(errno)") }
        guard aggregate_pipe(&errors) == 0 else {
            close(output[0]); close(output[1])
            throw SpawnError(description: "pipe: \(errno)")
        }
        let path = executable.path
        let cwd = directory?.path ?? FileManager.default.currentDirectoryPath
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var pid: pid_t = 0
        func attempt() -> Int32 {
            argv.withUnsafeBufferPointer { argvBuffer in
                envp.withUnsafeBufferPointer { envpBuffer in
                    aggregate_spawn(&pid, path, argvBuffer.baseAddress, envpBuffer.baseAddress, cwd, stdin, output[1], errors[1])
                }
            }
        }
        var delays = busyRetryDelays[...]
        var tries = 1
        var spawned = attempt()
        while spawned == ETXTBSY, let delay = delays.popFirst(), waitBeforeRetry(delay) {
            tries += 1
            spawned = attempt()
        }
        for pointer in argv + envp { free(pointer) }
        close(output[1])
        close(errors[1])
        guard spawned == 0 else {
            close(output[0]); close(errors[0])
            let busy = spawned == ETXTBSY ? " (tried \(tries) times: something still holds it open for writing)" : ""
            throw SpawnError(description: "posix_spawn \(path): \(String(cString: strerror(spawned)))\(busy)")
        }
        return (pid, output[0], errors[0])
    }

    /// Waits `seconds` on a semaphore nothing signals: a timed wait on the calling thread (never one of the
    /// shared pool's: see `spawn`).
    static func pause(_ seconds: Double) -> Bool {
        _ = DispatchSemaphore(value: 0).wait(timeout: .now() + seconds)
        return true
    }

    /// Reads `descriptor` until its end, then closes it.
    private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        defer { close(descriptor) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    /// The exit status, or the signal that ended the process (as Foundation's `terminationStatus` gives it), and
    /// the process's voluntary context switches.
    static func waitForExit(_ pid: pid_t) -> (status: Int32, switches: Int) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { return (-1, 0) }
        }
        let exit = aggregate_exit_status(status)
        return (exit >= 0 ? exit : aggregate_terminating_signal(status), Int(usage.ru_nvcsw))
    }
}

/// Whether any process of the process group `pgid` exists: `kill(-pgid, 0)` fails with ESRCH only when none
/// does (a zombie not yet reaped still counts). What a test checks to prove a program and all it started are
/// gone, by process group rather than by name.
public func processGroupExists(_ pgid: pid_t) -> Bool {
    kill(-pgid, 0) == 0 || errno != ESRCH
}
