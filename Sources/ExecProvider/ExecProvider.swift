import Domain
import Foundation
import Processes
import ProviderKit

/// `"provider": "exec"`: any program, in any language, that writes JSON lines to stdout becomes a source.
///
/// The program is started with `options.command` + `options.args` in the manifest's directory, with a
/// minimal environment (see `ExecCommand.inheritedVariables`) plus `options.env`. It receives
/// `{"source": <source id>, "options": <options.config or {}>}` as one line of JSON on stdin (or, with
/// `"input": "file"`, in a private temporary file whose path is appended as the last argument), and
/// writes one JSON message per line: our item shape or Singer `RECORD`/`SCHEMA`/`STATE` messages.
public struct ExecProvider: Provider {
    public let name = "exec"
    public var isLocal: Bool { true }
    public let summary = "runs an external program that prints JSON lines (items or Singer messages)"

    /// Seconds between SIGTERM and SIGKILL when a program is stopped.
    private let gracePeriod: Double

    public init(gracePeriod: Double = 2) {
        self.gracePeriod = gracePeriod
    }

    public var options: [OptionSpec] {
        [
            OptionSpec("command", "array of strings", required: true,
                       identity: .local, help: "the program and its first arguments (argv); a first element containing '/' is relative to the manifest, else looked up on PATH"),
            OptionSpec("args", "array of strings", default: "[]", help: "more arguments, appended to command"),
            OptionSpec("env", "object of strings", default: "{}", secretValues: true,
                       help: "environment variables added to a minimal inherited one (PATH, HOME, locale, TZ, TMPDIR, USER); values are never logged"),
            OptionSpec("config", "any JSON", default: "{}",
                       help: "handed to the program as the \"options\" member of its input"),
            OptionSpec("input", "stdin | file", default: "stdin",
                       help: "how the input JSON is passed: on stdin, or as the path of a temporary file appended to the arguments"),
            OptionSpec("maxOutputBytes", "integer", default: "\(ExecCommand.defaultMaxOutputBytes)",
                       identity: .tuning, help: "stdout larger than this stops the program and fails the source"),
        ]
    }

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        var argv: [String] = []
        if case .string = configuration.options["command"] {
            // No shell is involved, so a command line would be ambiguous: ask for the argv it means.
            reader.problem("command", "expected an array of strings (argv), such as [\"python3\", \"provider.py\"], found a string")
        } else if let command = reader.require("command", as: [String].self) {
            argv = command
            if command.first?.isEmpty ?? true {
                reader.problem("command", "needs the program to run as its first element")
            }
        }
        let args = reader.value("args", as: [String].self) ?? []
        let env = reader.value("env", as: [String: String].self) ?? [:]
        for name in env.keys.sorted() where name.isEmpty || name.contains("=") || name.contains("\0") {
            reader.problem("env", "'\(name)' is not a valid environment variable name")
        }
        let input = reader.value("input", as: ExecCommand.Input.self) ?? .stdin
        let maxOutputBytes = reader.value("maxOutputBytes", as: Int.self) ?? ExecCommand.defaultMaxOutputBytes
        if maxOutputBytes < 1 {
            reader.problem("maxOutputBytes", "must be at least 1")
        }
        let config = configuration.options["config"] ?? .null
        try reader.finish()

        let command = ExecCommand(
            sourceID: configuration.id, argv: argv + args, environment: env,
            config: config == .null ? [:] : config, input: input, maxOutputBytes: maxOutputBytes,
            baseDirectory: configuration.baseDirectory)
        let repository = ExecRecordRepository(command: command, logger: configuration.logger, gracePeriod: gracePeriod)
        return StreamRecordsUseCase(repository: repository)
    }
}

/// `"input": "stdin" | "file"` in the manifest.
extension ExecCommand.Input: OptionEnum {}
