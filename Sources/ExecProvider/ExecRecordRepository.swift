import Domain
import Foundation
import Logging
import Processes

/// Records from one run of an external program (see `ExecProvider` for the protocol it speaks).
public struct ExecRecordRepository {
    private let command: ExecCommand
    private let logger: Logger
    private let gracePeriod: Double
    private let parentEnvironment: [String: String]

    /// - Parameters:
    ///   - logger: receives every stderr line at info level (`--verbose`); never the input or `env` values.
    ///   - gracePeriod: seconds between SIGTERM and SIGKILL when the program is stopped, and at most as long
    ///     again for its process group to be gone after SIGKILL.
    public init(
        command: ExecCommand, logger: Logger, gracePeriod: Double = 2,
        parentEnvironment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.command = command
        self.logger = logger
        self.gracePeriod = gracePeriod
        self.parentEnvironment = parentEnvironment
    }
}

extension ExecRecordRepository: RecordStreamRepository {
    public func streamRecords(
        cancellation: CancellationToken, lingering: LingeringWork,
        onRecords: @escaping @Sendable ([Record]) -> Void,
        onWarning: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (SourceError?) -> Void
    ) {
        ProgramRun.run(
            command, parser: ProgramOutputParser(), logger: logger, gracePeriod: gracePeriod,
            parentEnvironment: parentEnvironment, cancellation: cancellation, lingering: lingering,
            events: ProgramRun.Events(onRecords: onRecords, onWarning: onWarning, completion: completion))
    }
}
