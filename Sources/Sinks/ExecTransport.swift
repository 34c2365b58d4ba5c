import Domain
import Foundation
import Logging
import Processes

/// `"type": "exec"`: each delivery runs the program once with the batch as NDJSON on stdin (one item per
/// line, the `-f ndjson` shape). Exit 0 means delivered; anything else (a non-zero exit, a signal, the
/// sink's timeout) is a failed attempt, tried again. The program runs as the exec provider runs its
/// programs (its own process group, a minimal environment plus `env`, stopped with SIGTERM then SIGKILL),
/// with `AGGREGATE_SINK` and `AGGREGATE_DELIVERY_ID` set so it can drop a batch it already handled.
public struct ExecTransport: SinkTransport {
    private let sink: String
    private let argv: [String]
    private let environment: [String: String]
    private let baseDirectory: URL
    private let timeoutSeconds: Double
    private let logger: Logger

    public init(
        sink: String, argv: [String], environment: [String: String], baseDirectory: URL, timeoutSeconds: Double,
        logger: Logger
    ) {
        self.sink = sink
        self.argv = argv
        self.environment = environment
        self.baseDirectory = baseDirectory
        self.timeoutSeconds = timeoutSeconds
        self.logger = logger
    }

    public func send(
        _ delivery: SinkDelivery, cancellation: CancellationToken,
        completion: @escaping @Sendable (SinkAttemptResult) -> Void
    ) {
        var command = ExecCommand(
            sourceID: sink, argv: argv,
            environment: environment.merging(["AGGREGATE_SINK": sink, "AGGREGATE_DELIVERY_ID": delivery.id]) { $1 },
            baseDirectory: baseDirectory)
        command.payload = delivery.itemLines
        // The attempt's own token: the sink's timeout, and the pass's stop passed on.
        let attempt = CancellationToken(deadline: .now() + timeoutSeconds)
        let registration = cancellation.onCancel { attempt.cancel() }
        let lingering = LingeringWork()
        // No parser: the program's stdout is logged, like its stderr.
        ProgramRun.run(
            command, parser: nil, logger: logger, gracePeriod: 2, parentEnvironment: ProcessInfo.processInfo.environment,
            cancellation: attempt, lingering: lingering,
            events: ProgramRun.Events(onRecords: { _ in }, onWarning: { [logger] warning in logger.warning("\(warning)") }) { error in
                // Reported once the program and its process group are gone.
                lingering.notify(queue: .global()) {
                    cancellation.removeHandler(registration)
                    completion(error.map { .retryable($0, retryAfter: nil) } ?? .delivered)
                }
            })
    }
}
