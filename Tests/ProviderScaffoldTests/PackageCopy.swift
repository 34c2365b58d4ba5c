import Foundation
import ProviderTesting

/// A copy of this package in a temporary directory, as a clean checkout has it (no build folders, no
/// Package.resolved), with the `swift` commands and the edits that docs/WRITING_A_PROVIDER.md tells a user to make.
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
        root = try ScratchDirectory.make("aggregate-scaffold")
        temporary = try ScratchDirectory.make("aggregate-scaffold-tmp")
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.original.path)
        where !Self.skipped.contains(name) && !name.hasPrefix(".build-") && !name.hasPrefix(".build_") {
            try FileManager.default.copyItem(
                at: Self.original.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
        try? FileManager.default.removeItem(at: temporary)
    }

    /// `swift ARGUMENTS` in the copy, at the lowest CPU priority so the rest of the suite running beside it
    /// keeps its timing. (Not `--jobs 1`: the driver then compiles file by file and takes several times as
    /// long.) `AGGREGATE_ONLY` limits the build to the targets named.
    func swift(_ arguments: [String], only targets: [String]? = nil) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TMPDIR"] = temporary.path
        environment["AGGREGATE_ONLY"] = targets?.joined(separator: ",")
        return try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["nice", "-n", "19", "swift"] + arguments, in: root,
            environment: environment)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: root.appendingPathComponent(path))
    }

    /// Step 2 of the guide: the printed lines go under the `// MARK:` groups of Package.swift, the target
    /// joins App's dependencies, and the provider joins `ProviderRegistry.builtIn`.
    func register(from output: String, target: String) throws {
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let targetLine = lines.first(where: { $0.hasPrefix(".target(name: \"\(target)\"") }),
              let testLine = lines.first(where: { $0.hasPrefix(".testTarget(name: \"\(target)Tests\"") }),
              let entry = lines.first(where: { $0 == "\(target)()," }) else {
            throw CocoaError(.formatting, userInfo: [NSLocalizedDescriptionKey: "no registration lines in:\n\(output)"])
        }
        var manifest = try read("Package.swift")
        manifest = try inserting("        \(targetLine)\n", after: "// MARK: - Providers", in: manifest)
        manifest = try inserting("        \(testLine)\n", after: "// MARK: - Tests", in: manifest)
        manifest = try inserting("            \"\(target)\",\n", after: ".target(name: \"App\", dependencies: [", in: manifest)
        try write("Package.swift", manifest)

        var registry = try read("Sources/App/ProviderRegistry.swift")
        registry = try inserting("import \(target)\n", after: "import Foundation", in: registry)
        registry = try inserting("        \(entry)\n", after: "public static let builtIn = ProviderRegistry([", in: registry)
        try write("Sources/App/ProviderRegistry.swift", registry)
    }

    /// `text` with `insertion` at the start of the line after the one containing `marker`.
    private func inserting(_ insertion: String, after marker: String, in text: String) throws -> String {
        guard let range = text.range(of: marker), let lineEnd = text[range.upperBound...].firstIndex(of: "\n") else {
            throw CocoaError(.formatting, userInfo: [NSLocalizedDescriptionKey: "'\(marker)' not found"])
        }
        var result = text
        result.insert(contentsOf: insertion, at: result.index(after: lineEnd))
        return result
    }
}
