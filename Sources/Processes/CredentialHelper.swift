import Domain
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a credential helper, a program whose stdout is a secret (`{"fromCommand": ["pass", "show", "tmdb"]}`).
///
/// Started like an exec source's program (`ChildProcess`: own process group, default signals, only the
/// inherited variables of `ExecCommand`), on a thread of its own that reads its output and reaps it. Its stdout
/// is the secret and appears in nothing: not in messages, not in logs. On failure its stderr's last lines are
/// shown, with anything it wrote to stdout scrubbed from them.
public enum CredentialHelper {
    /// More than any key or token; a helper that writes more is refused.
    static let maxOutputBytes = 64 * 1024

    /// - Parameters:
    ///   - argv: the program and its arguments (a first element with '/' is relative to `directory`, else on PATH).
    ///   - timeoutSeconds: the helper's process group is killed after this long, or when `cancellation` fires.
    ///   - completion: called once, on the helper's thread, with stdout (trailing newlines trimmed) or why not.
    public static func run(
        _ argv: [String], directory: URL, timeoutSeconds: Double, cancellation: CancellationToken? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        completion: @escaping @Sendable (Result<String, SourceError>) -> Void
    ) {
        let command = ExecCommand(sourceID: "", argv: argv, baseDirectory: directory)
        let thread = Thread {
            completion(runBlocking(command, timeoutSeconds: timeoutSeconds, cancellation: cancellation, environment: environment))
        }
        thread.name = "aggregate.credential-helper"
        thread.start()
    }

    /// Starts, reads and reaps the helper. Blocks: call on a thread of its own.
    private static func runBlocking(
        _ command: ExecCommand, timeoutSeconds: Double, cancellation: CancellationToken?, environment: [String: String]
    ) -> Result<String, SourceError> {
        let name = "credential helper '\(command.programName)'"
        let childEnvironment = command.childEnvironment(parent: environment)
        let executable: URL
        switch command.resolveExecutable(environment: childEnvironment) {
        case .success(let url): executable = url
        case .failure(let error): return .failure(SourceError(.configuration, "\(name): \(error.message)"))
        }
        let output: (read: Int32, write: Int32), errors: (read: Int32, write: Int32)
        do throws(ChildProcess.Failure) {
            output = try ChildProcess.pipeDescriptors()
            errors = try ChildProcess.pipeDescriptors()
        } catch {
            return .failure(SourceError(.configuration, "\(name) could not start: \(error.message)"))
        }
        let launch = ChildProcess.Launch(
            executable: executable.path, arguments: Array(command.argv.dropFirst()), environment: childEnvironment,
            directory: command.baseDirectory.path, stdin: nil, stdout: output.write, stderr: errors.write)
        // A helper written just before (a test, a setup script) may still be open for writing in a fork
        // elsewhere: ETXTBSY is tried again as exec sources do, waiting on a clock that a cancellation wakes.
        let retryWake = DispatchSemaphore(value: 0)
        let wakeRegistration = cancellation?.onCancel { retryWake.signal() }
        let spawned = ChildProcess.spawn(launch) { delay in
            (cancellation?.clock ?? SystemClock()).wait(for: retryWake, atMost: delay)
            return cancellation?.isCancelled != true
        }
        if let wakeRegistration { cancellation?.removeHandler(wakeRegistration) }
        close(output.write)
        close(errors.write)
        defer { close(output.read); close(errors.read) }
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let failure): return .failure(SourceError(.configuration, "\(name) could not start: \(failure.message)"))
        }
        // Once reaped, the pid (and group id) may be reused: a late cancellation must not signal it.
        let reaped = Mutex(false)
        let kill: @Sendable () -> Void = {
            reaped.withLock { if !$0 { ChildProcess.signal(SIGKILL, group: pid, alsoLeader: true) } }
        }
        let registration = cancellation?.onCancel(kill)
        defer { if let registration { cancellation?.removeHandler(registration) } }
        let (stdout, stderr, stopped) = drain(
            output.read, errors.read, until: Date().addingTimeInterval(timeoutSeconds), stop: kill)
        let termination = ChildProcess.reap(pid)
        reaped.withLock { $0 = true }
        let secret = String(decoding: stdout, as: UTF8.self)
        var tail = StderrTail(secrets: secret.split(whereSeparator: \.isNewline).map(String.init).filter { $0.count >= 4 })
        _ = tail.append(stderr)
        _ = tail.finish()
        let detail = tail.summary.map { ": \($0)" } ?? ""
        if stopped || cancellation?.isCancelled == true {
            return .failure(SourceError(.timeout, "\(name) did not finish within \(JSONValue.double(timeoutSeconds).displayText) s\(detail)"))
        }
        switch termination {
        case .exited(status: 0)?: break
        case .exited(let status)?: return .failure(SourceError(.configuration, "\(name) exited with status \(status)\(detail)"))
        case .signalled(let signal)?: return .failure(SourceError(.configuration, "\(name) was ended by signal \(signal)\(detail)"))
        case nil: return .failure(SourceError(.configuration, "\(name) could not be waited for\(detail)"))
        }
        guard stdout.count <= maxOutputBytes else {
            return .failure(SourceError(.configuration, "\(name) wrote more than \(maxOutputBytes) bytes; a secret is one line"))
        }
        let value = secret.trimmingCharacters(in: .newlines)
        guard !value.isEmpty else { return .failure(SourceError(.configuration, "\(name) printed nothing\(detail)")) }
        return .success(value)
    }

    /// Reads both pipes to their end (at most `maxOutputBytes` + 1 of stdout kept); calls `stop` once when the
    /// deadline passes first, and tells whether it did.
    private static func drain(
        _ stdout: Int32, _ stderr: Int32, until deadline: Date, stop: () -> Void
    ) -> (Data, Data, Bool) {
        var buffers = [Data(), Data()]
        var open = [true, true]
        var stopped = false
        var chunk = [UInt8](repeating: 0, count: 4096)
        while open.contains(true) {
            var fds = [stdout, stderr].enumerated().map { index, fd in
                pollfd(fd: open[index] ? fd : -1, events: Int16(POLLIN), revents: 0)
            }
            let remaining = stopped ? 1000 : max(0, Int32(deadline.timeIntervalSinceNow * 1000))
            let ready = poll(&fds, 2, remaining)
            if ready < 0, errno == EINTR { continue }
            if ready == 0 {
                if stopped { break }  // killed, yet something still holds a pipe open: give up on it
                stop()
                stopped = true
                continue
            }
            for index in 0..<2 where open[index] && fds[index].revents != 0 {
                let count = read(fds[index].fd, &chunk, chunk.count)
                if count <= 0 { open[index] = false; continue }
                if buffers[index].count <= maxOutputBytes { buffers[index].append(contentsOf: chunk[0..<count]) }
            }
        }
        return (buffers[0], buffers[1], stopped)
    }
}
