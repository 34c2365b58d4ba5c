import Domain
import Foundation

/// One validated invocation of an external program: what runs, where, with what environment and input.
public struct ExecCommand: Sendable, Hashable {
    /// How the input JSON reaches the program.
    public enum Input: String, Sendable, CaseIterable {
        /// One line of JSON on stdin, then end of file.
        case stdin
        /// A temporary file (mode 0600, removed after the run) whose path is the last argument; stdin is empty.
        case file
    }

    public static let defaultMaxOutputBytes = 16 * 1024 * 1024

    /// Variables passed through from aggregate's own environment. Nothing else is, so that credentials
    /// meant for other sources never reach a program: give it what it needs through `options.env`.
    public static let inheritedVariables = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR"]
    /// Prefixes of inherited variables (the locale's `LC_ALL`, `LC_CTYPE`, …).
    public static let inheritedPrefixes = ["LC_"]

    public var sourceID: String
    /// `command` followed by `args`; the first element is the program.
    public var argv: [String]
    /// `options.env`, added over the inherited variables.
    public var environment: [String: String]
    /// `options.config`: the program's own settings.
    public var config: JSONValue
    public var input: Input
    public var maxOutputBytes: Int
    /// The manifest's directory: the program's working directory and the base of a relative program path.
    public var baseDirectory: URL
    /// What the program reads instead of `{"source", "options"}` (an exec sink's NDJSON batch); nil: that.
    public var payload: Data?

    public init(
        sourceID: String, argv: [String], environment: [String: String] = [:], config: JSONValue = [:],
        input: Input = .stdin, maxOutputBytes: Int = defaultMaxOutputBytes, baseDirectory: URL
    ) {
        self.sourceID = sourceID
        self.argv = argv
        self.environment = environment
        self.config = config
        self.input = input
        self.maxOutputBytes = maxOutputBytes
        self.baseDirectory = baseDirectory
    }

    /// The program as written in the manifest, for messages (arguments are never shown: they may hold secrets).
    public var programName: String { argv.first ?? "" }

    /// Exactly what the program reads: `payload`, else `{"options":…,"source":…}` and a newline.
    public var inputJSON: Data {
        if let payload { return payload }
        let payload: JSONValue = ["source": .string(sourceID), "options": config]
        return Data((payload.compactJSON + "\n").utf8)
    }

    /// The child's environment: the inherited variables of `parent`, then `options.env`.
    public func childEnvironment(parent: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var result = parent.filter { name, _ in
            Self.inheritedVariables.contains(name) || Self.inheritedPrefixes.contains { name.hasPrefix($0) }
        }
        result.merge(environment) { _, configured in configured }
        return result
    }

    /// The program's file: a path with a '/' relative to the manifest's directory, else searched on the
    /// child's PATH.
    public func resolveExecutable(environment: [String: String]) -> Result<URL, SourceError> {
        let program = programName
        let fileManager = FileManager.default
        if program.contains("/") || program.hasPrefix("~") {
            let url = program.hasPrefix("/") || program.hasPrefix("~")
                ? URL(fileURLWithPath: (program as NSString).expandingTildeInPath).standardizedFileURL
                : baseDirectory.appendingPathComponent(program).standardizedFileURL
            guard fileManager.fileExists(atPath: url.path) else {
                return .failure(SourceError(.notFound, "command '\(program)' not found (looked for \(url.path))"))
            }
            guard fileManager.isExecutableFile(atPath: url.path) else {
                return .failure(SourceError(.configuration, "command '\(program)' is not executable (chmod +x \(url.path))"))
            }
            return .success(url)
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(program)
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               fileManager.isExecutableFile(atPath: candidate.path) {
                return .success(candidate)
            }
        }
        return .failure(SourceError(.notFound, "command '\(program)' not found on PATH"))
    }

    /// Values that must never appear in anything we print: `env` values and `config` strings under a
    /// secret-sounding name (`apiKey`, `GITHUB_TOKEN`, `password`, …).
    public var secrets: [String] {
        var found = environment.filter { Self.looksSecret($0.key) }.map(\.value)
        Self.collectSecrets(in: config, underSecretName: false, into: &found)
        return Array(Set(found.filter { $0.count >= 4 })).sorted { $0.count > $1.count }
    }

    static func looksSecret(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["key", "token", "secret", "password", "passwd", "auth", "credential", "cookie", "session"]
            .contains { lowered.contains($0) }
    }

    private static func collectSecrets(in value: JSONValue, underSecretName: Bool, into found: inout [String]) {
        switch value {
        case .string(let string) where underSecretName: found.append(string)
        case .array(let values): values.forEach { collectSecrets(in: $0, underSecretName: underSecretName, into: &found) }
        case .object(let members):
            for (key, member) in members {
                collectSecrets(in: member, underSecretName: underSecretName || looksSecret(key), into: &found)
            }
        default: break
        }
    }
}
