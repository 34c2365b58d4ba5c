import Foundation

/// The `jq` program, run on a file holding the input: what `--jq` is compared with. Tests that use it need
/// jq installed (`.ci/run` installs it).
public enum JQProgram {
    /// Runs `jq ARGUMENTS` on `input` and returns what it printed and its exit status.
    public static func run(_ arguments: [String], input: String) async throws -> ProcessResult {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jq-input-\(UUID().uuidString).json")
        try Data(input.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["jq"] + arguments + [file.path],
            environment: ProcessInfo.processInfo.environment)
    }

    /// "jq: error (at file:3): message" → "message" (where is said differently: a file's line, our item).
    public static func message(of line: String) -> String {
        guard let range = line.range(of: "): ") ?? line.range(of: ") ") else { return line }
        return String(line[range.upperBound...])
    }

    /// The messages of jq's error lines in `text`, without jq's own prefix: what `--jq` errors are compared with.
    public static func messages(of text: String) -> [String] {
        text.split(separator: "\n").map { message(of: String($0)) }
    }
}
