import Foundation
import ProviderKit
import ProviderScaffold
import ProviderTesting
import Testing

/// What a provider author and CI rely on about releases (CHANGELOG.md, "Version policy"): one version named alike by
/// `aggregate --version`, the scaffold and the changelog, and LAST_RELEASE naming a commit that really cut a release,
/// which CI's API-break check compares every library product with.
@Suite("release record")
struct ReleaseRecordTests {
    static let root = PackageCopy.original

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The versions of the changelog's `## X.Y.Z` headings, newest first.
    static func changelogReleases() throws -> [String] {
        try text("CHANGELOG.md").split(separator: "\n").compactMap { line in
            guard line.hasPrefix("## ") else { return nil }
            let version = line.dropFirst(3)
            let parts = version.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 3 && parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) ? String(version) : nil
        }
    }

    /// LAST_RELEASE's `version:` and `commit:` lines.
    static func lastRelease() throws -> (version: String, commit: String) {
        var values: [String: String] = [:]
        for line in try text("LAST_RELEASE").split(separator: "\n") where !line.hasPrefix("#") {
            let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2 { values[pair[0]] = pair[1] }
        }
        return (try #require(values["version"]), try #require(values["commit"]))
    }

    static func git(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["git", "-C", root.path] + arguments, in: root,
            environment: ProcessInfo.processInfo.environment)
    }

    @Test("aggregate --version, the scaffold and the changelog's newest release name one version")
    func oneVersion() throws {
        let releases = try Self.changelogReleases()
        try #require(!releases.isEmpty, "CHANGELOG.md has no release heading")
        #expect(releases.first == ToolVersion.current)
        #expect(AggregateDependency.currentVersion == ToolVersion.current)
    }

    @Test("LAST_RELEASE names a release of the changelog and the commit that set its version, in this history")
    func lastReleaseIsARelease() async throws {
        let release = try Self.lastRelease()
        #expect(try Self.changelogReleases().contains(release.version), "\(release.version) has no CHANGELOG.md section")
        #expect(release.commit.count == 40 && release.commit.allSatisfy(\.isHexDigit), "\(release.commit)")
        // A source archive has no history to look in.
        guard FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(".git").path) else { return }
        let version = try await Self.git(["show", "\(release.commit):Sources/ProviderKit/ToolVersion.swift"])
        if version.status != 0 {
            let shallow = try await Self.git(["rev-parse", "--is-shallow-repository"])
            // A shallow clone may lack it (CI's check fetches it); a full one must have it.
            #expect(shallow.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "true",
                    "\(release.commit) is not in this repository: \(version.stderr)")
            return
        }
        #expect(version.stdout.contains("\"\(release.version)\""), "ToolVersion at \(release.commit): \(version.stdout)")
        let ancestor = try await Self.git(["merge-base", "--is-ancestor", release.commit, "HEAD"])
        #expect(ancestor.status == 0, "\(release.commit) is not an ancestor of HEAD")
    }

    @Test("CI's API-break check covers every library product")
    func checkedProducts() async throws {
        let run = try Self.text(".ci/run")
        let line = try #require(run.split(separator: "\n").first { $0.contains("diagnose-api-breaking-changes") == false
            && $0.contains("--products") })
        let words = line.split(separator: " ").map(String.init)
        let start = try #require(words.firstIndex(of: "--products")) + 1
        let listed = words[start...].prefix { !$0.hasPrefix("--") && $0 != "\\" }
        #expect(Set(listed) == Set(try await PackageManifest.dump().libraryProducts), "\(line)")
        #expect(run.contains("LAST_RELEASE") && run.contains("AGGREGATE_API_BREAKS_ALLOWED"))
    }
}
