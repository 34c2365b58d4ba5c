import App
import ArgumentParser
import Foundation
import Logging
import Synchronization

/// The conformance checks a provider's author can run from outside, against any configured source.
struct CheckSourceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-source",
        abstract: "Run one source twice and check it as the conformance kit checks providers (exec ones too).",
        discussion: """
            Checks: options valid; each run ok and ended within the source's timeout; items with an id and a \
            title; ids unique and the same on both runs; no secret of the options in items, messages or logs; a \
            failure typed with a message of its own. One line per check (✓, ✗ with the fix, –); exits 1 when \
            any failed. The response cache is not read (responses are stored). See Examples/exec/README.md.
            """
    )

    @OptionGroup var manifestOptions: ManifestOptions

    @Argument(help: ArgumentHelp("The id of the source to check.", valueName: "id"))
    var id: String

    func run() throws {
        let captured = CapturedLog()
        let logger = Logger(label: "aggregate") { _ in CapturingLogHandler(log: captured) }
        let container = try manifestOptions.loadContainer(logger: logger, selection: [id])
        let checks: [DoctorCheck]
        do throws(SelectionError) {
            checks = try SourceCheck(container: container, sourceID: id, logs: { captured.lines }).run()
        } catch {
            Terminal.writeError("error: \(error.description)\n")
            throw ExitCode(ExitStatus.usage)
        }
        var output = CheckLines.render(checks)
        let failed = CheckLines.failures(checks)
        output += failed == 0 ? "\(id): every check passed\n" : "\(id): \(failed) check\(failed == 1 ? "" : "s") failed\n"
        print(output, terminator: "")
        if failed > 0 { throw ExitCode(ExitStatus.sourcesFailed) }
    }
}

/// What the sources logged during `check-source` (every level), for the secrets check.
final class CapturedLog: Sendable {
    private let state = Mutex<[String]>([])

    func append(_ line: String) { state.withLock { $0.append(line) } }

    var lines: [String] { state.withLock { $0 } }
}

struct CapturingLogHandler: LogHandler {
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    let log: CapturedLog

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        log.append("\(event.message) \(merged.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
    }
}
