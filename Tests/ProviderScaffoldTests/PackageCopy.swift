import Foundation
import ProviderTesting
import Testing

/// A copy of this package in a temporary directory (`…/aggregate`), as a clean checkout has it (no build folders, no
/// Package.resolved), with the commands a user runs on it.
struct PackageCopy {
    let root: URL
    /// The `swift` commands' temporary directory (`TMPDIR`): SwiftPM keeps its lock files there.
    let temporary: URL

    /// The repository this test file belongs to.
    static var original: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// What a clean checkout does not have: build products, local state, the git link of a worktree.
    static let skipped: Set<String> = [".build", ".swiftpm", ".git", "Package.resolved"]

    init() throws {
        let scratch = try ScratchDirectory.make("aggregate-release")
        root = scratch.appendingPathComponent("aggregate")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
        temporary = try ScratchDirectory.make("aggregate-release-tmp")
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.original.path)
        where !Self.skipped.contains(name) && !name.hasPrefix(".build-") && !name.hasPrefix(".build_") {
            try FileManager.default.copyItem(
                at: Self.original.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent())
        try? FileManager.default.removeItem(at: temporary)
    }

    /// `swift ARGUMENTS` in `directory` (the copy by default), at the lowest CPU priority so the rest of the suite
    /// running beside it keeps its timing. (Not `--jobs 1`: the driver then compiles file by file and takes several
    /// times as long.)
    func swift(_ arguments: [String], in directory: URL? = nil) async throws -> ProcessResult {
        try await run(URL(fileURLWithPath: "/usr/bin/env"), ["nice", "-n", "19", "swift"] + arguments, in: directory ?? root)
    }

    /// `executable ARGUMENTS` in `directory`, with the environment of a user's shell: no switches of this suite's.
    func run(_ executable: URL, _ arguments: [String], in directory: URL) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TMPDIR"] = temporary.path
        for name in ["AGGREGATE_ONLY", "AGGREGATE_FUZZ", "AGGREGATE_MANIFEST"] { environment[name] = nil }
        return try await ProcessRunner.run(executable, arguments, in: directory, environment: environment)
    }

    /// Makes the copy a git repository whose one commit is tagged `version`: a release, as a dependency by version
    /// (`from:`) sees one.
    func tagRelease(_ version: String) async throws {
        for arguments in [
            ["init", "--quiet"], ["add", "--all"],
            ["-c", "user.name=aggregate tests", "-c", "user.email=tests@invalid", "commit", "--quiet", "-m", "release"],
            ["tag", version],
        ] {
            let result = try await run(URL(fileURLWithPath: "/usr/bin/env"), ["git"] + arguments, in: root)
            try #require(result.status == 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
        }
    }
}
