import Foundation
import ProviderTesting

/// Runs the built `aggregate` binary as a user would, capturing stdout, stderr and the exit status.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The run's voluntary context switches (`ProcessResult`).
    var voluntaryContextSwitches = 0

    /// stdout parsed as a JSON object (the `--format json` envelope).
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        return object
    }

    func sources() throws -> [[String: Any]] { try json()["sources"] as? [[String: Any]] ?? [] }
    func items() throws -> [[String: Any]] { try json()["items"] as? [[String: Any]] ?? [] }
}

enum Aggregate {
    /// The binary SwiftPM built next to the test bundle.
    static var binary: URL {
        let testBinary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var directory = testBinary.deletingLastPathComponent()
        // macOS runs tests from inside an .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("aggregate")
    }

    /// The repository's root (for the shipped manifest and sample data).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A new empty data directory for one run's store, so no test writes into the real home directory.
    static func temporaryHome() -> URL {
        ScratchDirectory.path("aggregate-home")
    }

    /// Runs the binary to completion (`ProcessRunner`: the blocking parts happen on threads of their own).
    /// `AGGREGATE_HOME` is a new temporary directory unless the test gives one (to share a store between runs).
    /// `whileRunning` gets the binary's pid while it runs (to signal it).
    static func run(
        _ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:],
        removing: [String] = [], whileRunning: (pid_t) async throws -> Void = { _ in }
    ) async throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["AGGREGATE_HOME"] = temporaryHome().path
        for key in removing { environment[key] = nil }
        environment.merge(extra) { _, new in new }
        let result = try await ProcessRunner.run(
            binary, arguments, in: directory, environment: environment, whileRunning: whileRunning)
        return CommandResult(
            status: result.status, stdout: result.stdout, stderr: result.stderr,
            voluntaryContextSwitches: result.voluntaryContextSwitches)
    }
}

/// A temporary project directory with a manifest and data files.
struct Sandbox {
    let root: URL

    init(manifest: String, files: [String: String] = [:]) throws {
        root = ScratchDirectory.path("aggregate-e2e")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data(manifest.utf8).write(to: root.appendingPathComponent("manifest.json"))
        for (name, contents) in files {
            try Data(contents.utf8).write(to: root.appendingPathComponent(name))
        }
    }

    var manifestPath: String { root.appendingPathComponent("manifest.json").path }
}

