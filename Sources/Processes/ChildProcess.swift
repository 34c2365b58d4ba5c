import CProcessSpawn
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls of a program's life: starting it (`posix_spawn` through `CProcessSpawn`, which says
/// why not `Process`), reaping it, signalling its process group and telling when that group is gone.
///
/// Every program gets a process group of its own, whose id is its pid: stopping it reaches what it started.
enum ChildProcess {
    /// How a program ended.
    enum Termination: Sendable, Equatable {
        case exited(status: Int32)
        case signalled(Int32)
    }

    /// What to start.
    struct Launch {
        var executable: String
        /// After the program itself (`argv[0]`, which is `executable`).
        var arguments: [String]
        var environment: [String: String]
        var directory: String
        /// The read end of the input pipe; nil starts the program with /dev/null as its stdin.
        var stdin: Int32?
        var stdout: Int32
        var stderr: Int32
    }

    /// A failed system call, as its errno value.
    struct Failure: Error, Equatable {
        var code: Int32
        /// How many starts were tried (more than one only for a busy file, which is tried again).
        var tries = 1

        var message: String {
            let reason = String(cString: strerror(code))
            guard code == ETXTBSY else { return reason }
            return tries > 1
                ? "\(reason) (tried \(tries) times: something still holds the file open for writing)"
                : "\(reason) (something holds the file open for writing)"
        }
    }

    /// Becomes the reaper of its descendants' orphans once per process (`aggregate_adopt_orphans`): what a
    /// stopped shell leaves behind then ends as our child, and `groupExists` reaps it, rather than staying a
    /// zombie of the group until init gets to it (seconds in some containers, never in others).
    private static let adoptOrphans: Void = { _ = aggregate_adopt_orphans() }()

    /// A pipe whose ends are both close-on-exec, so no program started meanwhile inherits them.
    static func makePipe() throws(Failure) -> (read: FileHandle, write: FileHandle) {
        let (read, write) = try pipeDescriptors()
        return (FileHandle(fileDescriptor: read, closeOnDealloc: true),
                FileHandle(fileDescriptor: write, closeOnDealloc: true))
    }

    /// `makePipe` as bare descriptors, for the caller to close.
    static func pipeDescriptors() throws(Failure) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        let code = aggregate_pipe(&descriptors)
        guard code == 0 else { throw Failure(code: code) }
        return (descriptors[0], descriptors[1])
    }

    /// How many times, and after how long, a start that failed with ETXTBSY is tried again: exec fails with
    /// "text file busy" while any process (a fork of ours or another program's) still holds the script open
    /// for writing, as happens when a script is written just before it is run. The window is milliseconds on
    /// an idle machine; on a loaded one a concurrent spawn's child may wait that long for a CPU before it
    /// closes its copy, so the waits grow to about 3 s in all before the start fails.
    static let busyRetryDelays: [Double] = [0.02, 0.05, 0.1, 0.2, 0.4, 0.8, 1.5]

    /// Starts the program and returns its pid, which is also its process group's id.
    ///
    /// - Parameter waitBeforeRetry: waits the given seconds before another try after ETXTBSY and tells
    ///   whether to try at all (false: the run was stopped meanwhile). It must wait on a clock, not sleep.
    static func spawn(_ launch: Launch, waitBeforeRetry: (Double) -> Bool) -> Result<pid_t, Failure> {
        adoptOrphans
        let argv = [launch.executable] + launch.arguments
        let environment = launch.environment.map { "\($0.key)=\($0.value)" }
        var retries = busyRetryDelays[...]
        var tries = 0
        while true {
            tries += 1
            var pid: pid_t = 0
            let code = withCStrings(argv) { argv in
                withCStrings(environment) { environment in
                    aggregate_spawn(
                        &pid, launch.executable, argv, environment, launch.directory, launch.stdin ?? -1,
                        launch.stdout, launch.stderr)
                }
            }
            if code == 0 { return .success(pid) }
            guard code == ETXTBSY, let delay = retries.popFirst(), waitBeforeRetry(delay) else {
                return .failure(Failure(code: code, tries: tries))
            }
        }
    }

    /// Blocks until the program ends and reaps it; nil when it was reaped elsewhere. Call on a thread of the
    /// program's own, never on a Dispatch queue.
    static func reap(_ pid: pid_t) -> Termination? {
        var status: Int32 = 0
        while true {
            if waitpid(pid, &status, 0) == pid { break }
            if errno != EINTR { return nil }
        }
        let signal = aggregate_terminating_signal(status)
        return signal >= 0 ? .signalled(signal) : .exited(status: aggregate_exit_status(status))
    }

    /// Sends `signal` to the process group, and to the program itself while it is not reaped (it may have
    /// moved to a group of its own). A group that is gone is no error.
    static func signal(_ signal: Int32, group pgid: pid_t, alsoLeader: Bool) {
        kill(-pgid, signal)
        if alsoLeader { kill(pgid, signal) }
    }

    /// Whether any process of the group is left, after reaping those of its processes that ended as our
    /// children (orphans we adopted). Only after the program itself was reaped: this would steal its status.
    static func groupExists(_ pgid: pid_t) -> Bool {
        var status: Int32 = 0
        while waitpid(-pgid, &status, WNOHANG) > 0 {}
        return kill(-pgid, 0) == 0 || errno != ESRCH
    }

    /// `strings` as a NULL-terminated array of C strings, for the duration of `body`.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
    ) -> Result {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
