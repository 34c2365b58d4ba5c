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

/// One run of an external program: starts it (`ChildProcess`), feeds its input (`InputFeeder`), drains
/// stdout and stderr together (`OutputReader`), turns stdout lines into records as they arrive, and stops it
/// on timeout, cancellation or too much output (`ProgramLifecycle` decides, `ProgramRun+Lifecycle.swift`
/// carries it out). Each of those blocks on a thread of its own, never on Dispatch's shared threads.
///
/// The program is started, then reaped, on a thread of its own that blocks in `waitpid`: the run learns of
/// the exit at once even when a background process the program left holds its output. Completion waits for
/// the exit, for both output pipes to close and for the input to be fed (or given up). A grace period after
/// the exit, output still open is abandoned and the program's process group stopped, with a warning.
///
/// Every stop is awaited before the run's `LingeringWork` ends: SIGTERM to the process group, SIGKILL after
/// `gracePeriod`, then until the group is gone (at most another `gracePeriod`).
public final class ProgramRun: Sendable {
    /// Where the run reports; see `RecordStreamRepository`.
    public struct Events: Sendable {
        var onRecords: @Sendable ([Record]) -> Void
        var onWarning: @Sendable (String) -> Void
        var completion: @Sendable (SourceError?) -> Void

        public init(
            onRecords: @escaping @Sendable ([Record]) -> Void, onWarning: @escaping @Sendable (String) -> Void,
            completion: @escaping @Sendable (SourceError?) -> Void
        ) {
            self.onRecords = onRecords
            self.onWarning = onWarning
            self.completion = completion
        }
    }

    struct State {
        var lifecycle = ProgramLifecycle()
        /// Nil for a program that writes no records.
        var parser: (any ProgramOutputParsing)?
        var stderr: StderrTail
        /// A program that writes no records: its stdout, logged line by line.
        var stdoutLog: StderrTail
        var stdoutLine = Data()
        var stdoutBytes = 0
        var lineNumber = 0
        var startError: SourceError?
        var reader: OutputReader?
        var openOutputs = 2
        var isComplete = false
        var endLingering: (@Sendable () -> Void)?
    }

    let command: ExecCommand
    let logger: Logger
    let gracePeriod: Double
    /// The clock of the run's deadline (its token's): the timeout, the grace periods and the retries of a start.
    let clock: any TimerClock
    let state: Mutex<State>
    private let executable: URL
    private let environment: [String: String]
    private let events: Events
    private let group = DispatchGroup()
    /// Wakes a start waiting to retry after ETXTBSY when the run is stopped.
    let retryWake = DispatchSemaphore(value: 0)
    private let inputFile: URL?
    /// Whether stdout carries records (a parser was given); else its lines are logged like stderr's, at info level.
    private let readsRecords: Bool

    /// A process whose stdin and stdout go elsewhere would die of SIGPIPE when it stops reading; so would we
    /// when a program exits without reading its input. Ignored once, process-wide: write errors are handled.
    /// (Programs start with every signal at its default action: `ChildProcess`.)
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    init(command: ExecCommand, executable: URL, environment: [String: String], parser: (any ProgramOutputParsing)?,
         logger: Logger, gracePeriod: Double, clock: any TimerClock, events: Events) {
        self.command = command
        self.clock = clock
        self.executable = executable
        self.environment = environment
        self.logger = logger
        self.gracePeriod = gracePeriod
        self.events = events
        self.readsRecords = parser != nil
        self.state = Mutex(State(
            parser: parser, stderr: StderrTail(secrets: command.secrets), stdoutLog: StderrTail(secrets: command.secrets)))
        self.inputFile = command.input == .file
            ? FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-exec-\(UUID().uuidString).json")
            : nil
    }

    /// Runs `command` and returns at once: its environment is `parentEnvironment`'s inherited variables plus its own,
    /// its program is found (or the failure reported to `events` on another thread), then it starts.
    /// - Parameters:
    ///   - parser: reads stdout's lines as records; nil for a program whose stdout is only logged (an exec sink's).
    ///   - logger: receives every stderr line at info level (`--verbose`); never the input or `env` values.
    ///   - gracePeriod: seconds between SIGTERM and SIGKILL when the program is stopped, and at most as long
    ///     again for its process group to be gone after SIGKILL.
    public static func run(
        _ command: ExecCommand, parser: (any ProgramOutputParsing)?, logger: Logger, gracePeriod: Double,
        parentEnvironment: [String: String], cancellation: CancellationToken, lingering: LingeringWork, events: Events
    ) {
        let environment = command.childEnvironment(parent: parentEnvironment)
        let executable: URL
        switch command.resolveExecutable(environment: environment) {
        case .success(let url): executable = url
        case .failure(let error):
            DispatchQueue.global().async { events.completion(error) }
            return
        }
        let run = ProgramRun(
            command: command, executable: executable, environment: environment, parser: parser, logger: logger,
            gracePeriod: gracePeriod, clock: cancellation.clock, events: events)
        run.start(cancellation: cancellation, lingering: lingering)
    }

    /// Starts the run and returns at once; `cancellation` carries the deadline and stops the run early, and
    /// the program stays registered in `lingering` until it and its process group are gone.
    func start(cancellation: CancellationToken, lingering: LingeringWork) {
        Self.ignoreBrokenPipes
        let timeoutText = cancellation.deadline.map {
            JSONValue.double((clock.seconds(until: $0) * 10).rounded() / 10).displayText
        }
        let endLingering = lingering.begin()
        state.withLock { $0.endLingering = endLingering }
        group.enter()  // exit (or not started)
        group.enter()  // stdout closed
        group.enter()  // stderr closed
        if let deadline = cancellation.deadline { timeOut(at: deadline, cancellation) }
        cancellation.onCancel { [weak self] in self?.stop(.cancelled) }
        group.notify(queue: .global()) { [self] in complete(timeoutText: timeoutText ?? "") }
        let thread = Thread { [self] in startAndReap() }
        thread.name = "aggregate.exec.process"
        thread.start()
    }

    /// Stops the program at `deadline`, or later if the source's clock was paused meanwhile (the run waited for
    /// its output to take the program's items: the program was blocked on a full pipe, not slow).
    private func timeOut(at deadline: DispatchTime, _ cancellation: CancellationToken) {
        clock.wake(at: deadline) { [weak self] in
            guard let self else { return }
            if let later = cancellation.nextCheck(afterFiringAt: deadline) {
                timeOut(at: later, cancellation)
            } else {
                stop(.timeout)
            }
        }
    }

    // MARK: - The program's thread

    /// Starts the program, then blocks in `waitpid` until it ends. Runs on a thread of its own.
    private func startAndReap() {
        let pid: pid_t
        switch launch() {
        case .running(let started): pid = started
        case .failed(let error):
            state.withLock { $0.startError = error }
            fallthrough
        case .stoppedFirst:
            perform(state.withLock { $0.lifecycle.failedToStart() })
            for _ in 0..<3 { group.leave() }
            return
        }
        logger.debug("started \(command.programName) (pid \(pid), \(command.argv.count - 1) arguments)")
        let termination = ChildProcess.reap(pid)
        if termination == nil {
            logger.warning("could not learn how \(command.programName) (pid \(pid)) ended: it was reaped elsewhere")
        }
        perform(state.withLock { $0.lifecycle.reaped(termination) })
        group.leave()
    }

    private enum Launched {
        case running(pid_t)
        case failed(SourceError)
        /// A stop came before the program started, so it was not.
        case stoppedFirst
    }

    /// Writes the input file, makes the pipes and starts the program; once it runs, its output is read and
    /// its input fed.
    private func launch() -> Launched {
        let stdout: (read: FileHandle, write: FileHandle)
        let stderr: (read: FileHandle, write: FileHandle)
        let stdin: (read: FileHandle, write: FileHandle)?
        let reader: OutputReader
        do {
            if let inputFile { try Self.writePrivately(command.inputJSON, to: inputFile) }
            stdout = try ChildProcess.makePipe()
            stderr = try ChildProcess.makePipe()
            stdin = command.input == .stdin ? try ChildProcess.makePipe() : nil
            reader = try OutputReader()
        } catch {
            return .failed(startFailure((error as? ChildProcess.Failure)?.message ?? error.localizedDescription))
        }
        let launch = ChildProcess.Launch(
            executable: executable.path, arguments: Array(command.argv.dropFirst()) + (inputFile.map { [$0.path] } ?? []),
            environment: environment, directory: command.baseDirectory.path, stdin: stdin?.read.fileDescriptor,
            stdout: stdout.write.fileDescriptor, stderr: stderr.write.fileDescriptor)
        let spawned: Result<pid_t, ChildProcess.Failure>? = state.withLock { $0.lifecycle.mayStart }
            ? ChildProcess.spawn(launch) { [self] delay in
                clock.wait(for: retryWake, atMost: delay)  // a clock, not a sleep: a stop wakes it
                return state.withLock { $0.lifecycle.mayStart }
            }
            : nil
        // The child has its copies; ours would keep the pipes open and hide the end of the output.
        try? stdout.write.close()
        try? stderr.write.close()
        try? stdin?.read.close()
        guard case .success(let pid) = spawned else {
            try? stdout.read.close()
            try? stderr.read.close()
            try? stdin?.write.close()
            guard case .failure(let failure) = spawned, state.withLock({ $0.lifecycle.mayStart }) else {
                return .stoppedFirst
            }
            return .failed(startFailure(failure.message))
        }
        state.withLock { $0.reader = reader }
        perform(state.withLock { $0.lifecycle.started(pid: pid) })
        reader.start(
            stdout: stdout.read, stderr: stderr.read,
            onData: { [self] stream, chunk in
                switch stream {
                case .stdout: receiveStdout(chunk)
                case .stderr: receiveStderr(chunk)
                }
            },
            onEnd: { [self] _ in
                state.withLock { $0.openOutputs -= 1 }
                group.leave()
            })
        if let stdin { feed(command.inputJSON, to: stdin.write) }
        return .running(pid)
    }

    private func startFailure(_ reason: String) -> SourceError {
        SourceError(.io, "could not start '\(command.programName)': \(reason)")
    }

    // MARK: - Pipes

    /// A program that exits without reading all of its input is fine: it did not need it.
    private func feed(_ payload: Data, to handle: FileHandle) {
        group.enter()  // input fed, or given up
        InputFeeder.start(
            payload, to: handle,
            shouldGiveUp: { [self] in state.withLock { $0.lifecycle.isEnding } },
            done: { [self] written in
                if written < payload.count {
                    logger.debug("'\(command.programName)' took \(written) of the \(payload.count) bytes of its input")
                }
                group.leave()
            })
    }

    private func receiveStdout(_ chunk: Data) {
        guard readsRecords else {
            let lines = state.withLock { $0.stdoutLog.append(chunk) }
            for line in lines { logger.info("stdout: \(line)") }
            return
        }
        let (records, overCap) = state.withLock { state -> ([Record], Bool) in
            guard state.lifecycle.stopReason == nil else { return ([], false) }
            let allowance = command.maxOutputBytes - state.stdoutBytes
            let accepted = chunk.count > allowance ? chunk.prefix(allowance) : chunk
            state.stdoutBytes += accepted.count
            state.stdoutLine.append(accepted)
            var records: [Record] = []
            var start = state.stdoutLine.startIndex
            while let newline = state.stdoutLine[start...].firstIndex(of: UInt8(ascii: "\n")) {
                state.lineNumber += 1
                if let record = state.parser?.consume(state.stdoutLine[start..<newline], number: state.lineNumber) {
                    records.append(record)
                }
                start = newline + 1
            }
            state.stdoutLine = Data(state.stdoutLine[start...])
            return (records, chunk.count > allowance)
        }
        // Called on the reader's one thread, so batches keep the program's order.
        if !records.isEmpty { events.onRecords(records) }
        if overCap { stop(.outputCap) }
    }

    private func receiveStderr(_ chunk: Data) {
        let lines = state.withLock { $0.stderr.append(chunk) }
        for line in lines { logger.info("stderr: \(line)") }
    }

    /// Stops reading the output (what still holds it is not the program).
    func stopReading() {
        state.withLock { $0.isComplete ? nil : $0.reader }?.stop()
    }

    // MARK: - Completion

    private func complete(timeoutText: String) {
        // Processes the program left in its group are stopped too; asked outside the lock (system calls).
        let leftoverGroup = state.withLock { $0.lifecycle.groupToCheckAtCompletion }
        let groupRemains = leftoverGroup.map(ChildProcess.groupExists) ?? false
        let (lastRecord, lastStderr, outcome, startError, actions) = state.withLock {
            state -> (Record?, [String], ProgramOutcome, SourceError?, [ProgramLifecycle.Action]) in
            state.isComplete = true
            state.reader = nil
            let actions = state.lifecycle.completed(groupRemains: groupRemains)
            var lastRecord: Record?
            if readsRecords, state.lifecycle.stopReason == nil, !state.stdoutLine.isEmpty {  // a last line without its newline
                state.lineNumber += 1
                lastRecord = state.parser?.consume(state.stdoutLine, number: state.lineNumber)
            }
            let lastStderr = state.stderr.finish()
            return (lastRecord, lastStderr, self.outcome(of: state, timeoutText: timeoutText), state.startError, actions)
        }
        perform(actions)
        removeInputFile()
        if let startError { return events.completion(startError) }
        for line in lastStderr { logger.info("stderr: \(line)") }
        if let lastRecord { events.onRecords([lastRecord]) }
        for warning in outcome.warnings { events.onWarning(warning) }
        if let summary = outcome.logSummary { logger.info("\(summary)") }
        events.completion(outcome.error)
    }

    private func outcome(of state: State, timeoutText: String) -> ProgramOutcome {
        ProgramOutcome(
            program: "'\(command.programName)'", stopReason: state.lifecycle.stopReason,
            termination: state.lifecycle.termination, stderrSummary: state.stderr.summary, parser: state.parser,
            maxOutputBytes: command.maxOutputBytes,
            outputAbandonedAfter: state.lifecycle.outputAbandoned ? gracePeriod : nil,
            leftoversStopped: state.lifecycle.leftoversStopped, timeoutText: timeoutText)
    }

    // MARK: - Input file

    /// Created with mode 0600 from the start: the input may hold credentials.
    private static func writePrivately(_ data: Data, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.close()
    }

    private func removeInputFile() {
        if let inputFile { try? FileManager.default.removeItem(at: inputFile) }
    }
}
