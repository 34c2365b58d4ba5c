import Dispatch
import Domain
import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of an external program: starts it, feeds its input (`InputFeeder`), drains stdout and stderr
/// concurrently (non-blocking `DispatchIO`, so neither pipe can fill up and stall the other), turns stdout
/// lines into records as they arrive, and stops it on timeout, cancellation or too much output.
///
/// Stopping sends SIGTERM to the program's process group (children of a shell script too), then SIGKILL
/// after `gracePeriod`. Foundation's `Process` reaps the child, so no zombie is left. Completion waits for
/// the exit, for both output pipes to close and for the input to be fed (or given up).
///
/// A program may exit leaving a background process (`sleep 60 &`) that holds its output, and hides the exit
/// from `Process` too: on Linux it learns of the exit when a socket the child inherited closes, and the
/// background process holds that as well. So the run watches the pid itself; `gracePeriod` after the exit
/// it stops the program's process group and completes with what was read, with a warning, rather than at
/// its timeout.
final class ProgramRun: Sendable {
    enum StopReason: Sendable {
        case timeout, cancelled, outputCap
    }

    /// Where the run reports; see `RecordStreamRepository`.
    struct Events: Sendable {
        var onRecords: @Sendable ([Record]) -> Void
        var onWarning: @Sendable (String) -> Void
        var completion: @Sendable (SourceError?) -> Void
    }

    private struct State {
        var parser = ProgramOutputParser()
        var stderr: StderrTail
        var stdoutLine = Data()
        var stdoutBytes = 0
        var lineNumber = 0
        var stopReason: StopReason?
        var pid: pid_t = 0
        var ownsProcessGroup = false
        var termination: (reason: Process.TerminationReason, status: Int32)?
        var channels: [DispatchIO] = []
        var openOutputs = 2
        var outputAbandoned = false
        var isComplete = false
    }

    private let command: ExecCommand
    private let executable: URL
    private let environment: [String: String]
    private let logger: Logger
    private let gracePeriod: Double
    private let events: Events
    private let state: Mutex<State>
    private let group = DispatchGroup()
    private let stdoutQueue = DispatchQueue(label: "aggregate.exec.stdout")
    private let stderrQueue = DispatchQueue(label: "aggregate.exec.stderr")
    private let inputFile: URL?

    /// A process whose stdin and stdout go elsewhere would die of SIGPIPE when it stops reading; so would we
    /// when a program exits without reading its input. Ignored once, process-wide: write errors are handled.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    init(command: ExecCommand, executable: URL, environment: [String: String], logger: Logger,
         gracePeriod: Double, events: Events) {
        self.command = command
        self.executable = executable
        self.environment = environment
        self.logger = logger
        self.gracePeriod = gracePeriod
        self.events = events
        self.state = Mutex(State(stderr: StderrTail(secrets: command.secrets)))
        self.inputFile = command.input == .file
            ? FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-exec-\(UUID().uuidString).json")
            : nil
    }

    /// Starts the process, retrying briefly on ETXTBSY: exec fails with "text file busy" while any process
    /// (a fork of ours or another program's) still holds the script open for writing, as happens when a
    /// script is written just before it is run. The window is milliseconds; five tries over ~300 ms cover it.
    private static func launch(_ process: Process) throws {
        var attempt = 0
        while true {
            do {
                return try process.run()
            } catch {
                let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
                guard underlying?.domain == NSPOSIXErrorDomain, underlying?.code == Int(ETXTBSY), attempt < 4 else {
                    throw error
                }
                attempt += 1
                usleep(UInt32(20_000 << attempt))
            }
        }
    }

    func start(deadline: DispatchTime, cancellation: CancellationToken) {
        Self.ignoreBrokenPipes
        let timeoutText = JSONValue.double((Self.seconds(until: deadline) * 10).rounded() / 10).displayText
        let process = Process()
        let stdout = Pipe(), stderr = Pipe()
        let stdin: Pipe? = command.input == .stdin ? Pipe() : nil
        process.executableURL = executable
        process.arguments = Array(command.argv.dropFirst()) + (inputFile.map { [$0.path] } ?? [])
        process.environment = environment
        process.currentDirectoryURL = command.baseDirectory
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin ?? FileHandle.nullDevice
        process.terminationHandler = { [self] process in
            state.withLock { $0.termination = (process.terminationReason, process.terminationStatus) }
            group.leave()
        }

        group.enter()  // exit
        group.enter()  // stdout closed
        group.enter()  // stderr closed
        do {
            if let inputFile { try Self.writePrivately(command.inputJSON, to: inputFile) }
            try Self.launch(process)
        } catch {
            removeInputFile()
            for _ in 0..<3 { group.leave() }
            let reason = (error as NSError).localizedDescription
            events.completion(SourceError(.io, "could not start '\(command.programName)': \(reason)"))
            return
        }
        // The child has its copies; ours would keep the pipes open and hide the end of the output.
        try? stdout.fileHandleForWriting.close()
        try? stderr.fileHandleForWriting.close()
        try? stdin?.fileHandleForReading.close()

        let pid = process.processIdentifier
        state.withLock {
            $0.pid = pid
            $0.ownsProcessGroup = getpgid(pid) == pid
        }
        logger.debug("started \(command.programName) (pid \(pid), \(command.argv.count - 1) arguments)")
        watchForExit(of: pid)
        read(stdout.fileHandleForReading, on: stdoutQueue) { [self] chunk in receiveStdout(chunk) }
        read(stderr.fileHandleForReading, on: stderrQueue) { [self] chunk in receiveStderr(chunk) }
        if let stdin { feed(command.inputJSON, to: stdin.fileHandleForWriting) }

        DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in self?.stop(.timeout) }
        cancellation.onCancel { [weak self] in self?.stop(.cancelled) }
        group.notify(queue: .global()) { [self] in complete(timeoutText: timeoutText) }
    }

    // MARK: - Pipes

    private func read(_ handle: FileHandle, on queue: DispatchQueue, onData: @escaping @Sendable (Data) -> Void) {
        let channel = DispatchIO(type: .stream, fileDescriptor: handle.fileDescriptor, queue: queue) { _ in
            try? handle.close()
        }
        channel.setLimit(lowWater: 1)
        state.withLock { $0.channels.append(channel) }
        channel.read(offset: 0, length: Int.max, queue: queue) { [self] done, data, _ in
            if let data, !data.isEmpty {
                var bytes = Data(count: data.count)
                bytes.withUnsafeMutableBytes { _ = data.copyBytes(to: $0) }
                onData(bytes)
            }
            if done {
                state.withLock { $0.openOutputs -= 1 }
                channel.close()
                group.leave()
            }
        }
    }

    /// A program that exits without reading all of its input is fine: it did not need it.
    private func feed(_ payload: Data, to handle: FileHandle) {
        group.enter()  // input fed, or given up
        InputFeeder.start(
            payload, to: handle,
            shouldGiveUp: { [self] in state.withLock { $0.stopReason != nil || $0.termination != nil } },
            done: { [self] written in
                if written < payload.count {
                    logger.debug("'\(command.programName)' took \(written) of the \(payload.count) bytes of its input")
                }
                group.leave()
            })
    }

    private func receiveStdout(_ chunk: Data) {
        let (records, overCap) = state.withLock { state -> ([Record], Bool) in
            guard state.stopReason == nil else { return ([], false) }
            let allowance = command.maxOutputBytes - state.stdoutBytes
            let accepted = chunk.count > allowance ? chunk.prefix(allowance) : chunk
            state.stdoutBytes += accepted.count
            state.stdoutLine.append(accepted)
            var records: [Record] = []
            var start = state.stdoutLine.startIndex
            while let newline = state.stdoutLine[start...].firstIndex(of: UInt8(ascii: "\n")) {
                state.lineNumber += 1
                if let record = state.parser.consume(state.stdoutLine[start..<newline], number: state.lineNumber) {
                    records.append(record)
                }
                start = newline + 1
            }
            state.stdoutLine = Data(state.stdoutLine[start...])
            return (records, chunk.count > allowance)
        }
        // Called on the serial stdout queue, so batches keep the program's order.
        if !records.isEmpty { events.onRecords(records) }
        if overCap { stop(.outputCap) }
    }

    private func receiveStderr(_ chunk: Data) {
        let lines = state.withLock { $0.stderr.append(chunk) }
        for line in lines { logger.info("stderr: \(line)") }
    }

    // MARK: - Stopping

    private func stop(_ reason: StopReason) {
        let target: (pid: pid_t, group: Bool, exited: Bool)? = state.withLock { state in
            guard !state.isComplete, state.stopReason == nil, state.pid != 0 else { return nil }
            state.stopReason = reason
            return (state.pid, state.ownsProcessGroup, state.termination != nil)
        }
        guard let target else { return }
        logger.debug("stopping \(command.programName) (\(reason))")
        if target.exited {
            closeChannels()  // the program is gone; something it started still holds the pipes
            return
        }
        kill(target.group ? -target.pid : target.pid, SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + gracePeriod) { [weak self] in self?.forceStop() }
    }

    private func forceStop() {
        let target: (pid: pid_t, group: Bool)? = state.withLock { state in
            guard !state.isComplete, state.termination == nil else { return nil }
            return (state.pid, state.ownsProcessGroup)
        }
        if let target {
            logger.debug("\(command.programName) ignored SIGTERM; sending SIGKILL")
            kill(target.group ? -target.pid : target.pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + gracePeriod) { [weak self] in self?.closeChannels() }
    }

    /// Polls the pid every 100 ms with `waitid(WNOWAIT)`, which sees the exit and leaves the reaping to
    /// `Process`, until the exit is seen or the run completes.
    private func watchForExit(of pid: pid_t) {
        stderrQueue.asyncAfter(deadline: .now() + 0.1) { [weak self] in self?.checkExit(of: pid) }
    }

    private func checkExit(of pid: pid_t) {
        var info = siginfo_t()
        let exited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
        let noticed = state.withLock { $0.isComplete || $0.termination != nil }
        guard exited || noticed else { return watchForExit(of: pid) }
        if !noticed {
            DispatchQueue.global().asyncAfter(deadline: .now() + gracePeriod) { [weak self] in self?.abandonOutput() }
        }
    }

    /// The program exited `gracePeriod` ago, yet its output is open or `Process` has not seen the exit:
    /// something it left running holds them. Its process group is stopped (SIGTERM, then SIGKILL).
    private func abandonOutput() {
        let target: (pid: pid_t, group: Bool)? = state.withLock { state in
            guard !state.isComplete, state.stopReason == nil, state.openOutputs > 0 || state.termination == nil else {
                return nil
            }
            state.outputAbandoned = true
            return (state.pid, state.ownsProcessGroup)
        }
        guard let target else { return }
        logger.debug("\(command.programName) exited but left a process holding its output; stopping it")
        if target.group { kill(-target.pid, SIGTERM) }
        closeChannels()
        DispatchQueue.global().asyncAfter(deadline: .now() + gracePeriod) { [weak self] in self?.forceStop() }
    }

    private func closeChannels() {
        let channels = state.withLock { $0.isComplete ? [] : $0.channels }
        for channel in channels { channel.close(flags: .stop) }
    }

    // MARK: - Completion

    private func complete(timeoutText: String) {
        let (lastRecord, lastStderr, outcome) = state.withLock { state -> (Record?, [String], ProgramOutcome) in
            state.isComplete = true
            state.channels = []
            var lastRecord: Record?
            if state.stopReason == nil, !state.stdoutLine.isEmpty {  // a last line without its newline
                state.lineNumber += 1
                lastRecord = state.parser.consume(state.stdoutLine, number: state.lineNumber)
            }
            let lastStderr = state.stderr.finish()
            return (lastRecord, lastStderr, self.outcome(of: state, timeoutText: timeoutText))
        }
        for line in lastStderr { logger.info("stderr: \(line)") }
        removeInputFile()
        if let lastRecord { events.onRecords([lastRecord]) }
        for warning in outcome.warnings { events.onWarning(warning) }
        if outcome.stateMessages > 0 {
            logger.info("ignored \(outcome.stateMessages) Singer STATE message(s)")
        }
        events.completion(outcome.error)
    }

    private func outcome(of state: State, timeoutText: String) -> ProgramOutcome {
        ProgramOutcome(
            program: "'\(command.programName)'", stopReason: state.stopReason, termination: state.termination,
            stderrSummary: state.stderr.summary, parser: state.parser, maxOutputBytes: command.maxOutputBytes,
            outputAbandonedAfter: state.outputAbandoned ? gracePeriod : nil, timeoutText: timeoutText)
    }

    // MARK: - Input file

    /// Created with mode 0600 from the start: the input may hold credentials.
    private static func writePrivately(_ data: Data, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.close()
    }

    private func removeInputFile() {
        if let inputFile { try? FileManager.default.removeItem(at: inputFile) }
    }

    private static func seconds(until deadline: DispatchTime) -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        return deadline.uptimeNanoseconds > now ? Double(deadline.uptimeNanoseconds - now) / 1e9 : 0
    }
}
