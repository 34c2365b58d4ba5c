import Foundation
import ProviderScaffold
import ProviderTesting
import Testing

/// docs/EXTENDING.md, "Your own provider, in your own package", as a provider author does it: this checkout tagged as a
/// release, a package of the scaffold's (`--standalone`) that depends on it **by version** (SwiftPM refuses a versioned
/// dependency with unsafe flags; a branch or path dependency would hide that), its conformance tests, and its custom
/// `aggregate` running its provider beside a built-in one. One provider per capability, so no template can rot.
///
/// Slow by nature: it builds aggregate again as a dependency (SwiftNIO, BoringSSL, Hummingbird), at low priority
/// beside the rest of the suite. This is the suite's only second build of the package. Set
/// AGGREGATE_SKIP_SCAFFOLD_BUILD=1 to skip it while iterating on something else.
@Suite("a provider in its own package, end to end")
struct StandalonePackageEndToEndTests {
    static let providers: [(name: String, capability: Capability)] = [
        ("Tech Digest", .records), ("Sky Watch", .weather), ("Bug Base", .issues), ("Film Finder", .movies),
        ("Note Feed", .feed),
    ]

    /// docs/EXTENDING.md's steps from a clone without tags: `new-provider --standalone` in it asks for the checkout by
    /// path, so SwiftPM finds aggregate's products with no release tag anywhere. (The copy is not even a git repository;
    /// a `from:` dependency on it could not resolve.) Resolving only: the build is the test above's.
    @Test("a package scaffolded from a checkout without tags resolves aggregate's products",
          .enabled(if: ProcessInfo.processInfo.environment["AGGREGATE_SKIP_SCAFFOLD_BUILD"] == nil),
          .timeLimit(.minutes(20)))
    func pathDependencyWithoutTags() async throws {
        let checkout = try PackageCopy()
        defer { checkout.remove() }
        let scaffold = Scaffold(name: try ProviderName("Acme"), capability: .records)
        let package = StandalonePackage(scaffold: scaffold, dependency: .forScaffold(
            checkoutPath: checkout.root.path, url: nil, version: nil))
        let directory = checkout.temporary.appendingPathComponent("acme")
        try package.write(into: directory)

        // Loads the whole graph: a product the manifest names that aggregate lacks would fail it.
        let resolved = try await checkout.swift(["package", "show-dependencies", "--format", "json"], in: directory)
        try #require(resolved.status == 0, "\(resolved.stderr.suffix(4000))")
        let graph = try #require(try JSONSerialization.jsonObject(with: Data(resolved.stdout.utf8)) as? [String: Any])
        let dependencies = try #require(graph["dependencies"] as? [[String: Any]])
        #expect(dependencies.count == 1)
        #expect(dependencies.first?["identity"] as? String == "aggregate")
        #expect(dependencies.first?["path"] as? String == checkout.root.path)
    }

    @Test("a package depending on a tagged release passes the conformance kit and its aggregate runs its provider",
          .enabled(if: ProcessInfo.processInfo.environment["AGGREGATE_SKIP_SCAFFOLD_BUILD"] == nil),
          .timeLimit(.minutes(40)))
    func versionedDependency() async throws {
        let release = try PackageCopy()
        defer { release.remove() }
        try await release.tagRelease(AggregateDependency.currentVersion)

        let scaffolds = try Self.providers.map { Scaffold(name: try ProviderName($0.name), capability: $0.capability) }
        let package = StandalonePackage(scaffolds: scaffolds, dependency: AggregateDependency(
            url: "file://" + release.root.path, version: AggregateDependency.currentVersion))
        let directory = release.temporary.appendingPathComponent("tech-digest")
        try package.write(into: directory)

        // 1. Its tests: the generated ones and the conformance kit, for every provider.
        let test = try await release.swift(["test"], in: directory)
        try #require(test.status == 0, "\(test.stdout.suffix(6000))\n\(test.stderr.suffix(4000))")
        let warnings = (test.stdout + test.stderr).split(separator: "\n").filter {
            $0.contains("warning:") && $0.contains(directory.path) && !$0.contains("/.build/")
        }
        #expect(warnings.isEmpty, "\(warnings)")
        for scaffold in scaffolds {
            #expect(test.stdout.contains("Suite \"\(scaffold.name.displayName) provider\" passed"), "\(scaffold.name)")
            #expect(test.stdout.contains("Suite \"\(scaffold.name.displayName) provider conformance\" passed"), "\(scaffold.name)")
        }

        // 2. Its aggregate: the new provider against the fixture server beside the built-in `files` provider.
        let build = try await release.swift(["build", "--product", package.executableName], in: directory)
        try #require(build.status == 0, "\(build.stderr.suffix(4000))")
        let binary = directory.appendingPathComponent(".build/debug/\(package.executableName)")
        let server = try await FixtureServer.start()
        server.route("/search", .json(#"{"items":[{"id":"101","title":"A tiny Swift package","points":42}]}"#))
        try Data(#"[{"id": "n1", "title": "a note"}]"#.utf8).write(to: directory.appendingPathComponent("notes.json"))
        try Data("""
            {"version": 1, "sources": [
              {"id": "digest", "provider": "tech-digest", "options": {"queries": ["swift"], "baseURL": "\(server.baseURL.absoluteString)"}},
              {"id": "notes", "provider": "files", "options": {"paths": ["notes.json"]}}
            ]}
            """.utf8).write(to: directory.appendingPathComponent("manifest.json"))
        let run = try await release.run(binary, ["--format", "ndjson"], in: directory)
        await server.stop()
        #expect(run.status == 0, "\(run.stderr)")
        let items = run.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let sourceAndID = items.map { "\($0["source"] ?? "") \($0["id"] ?? "")" }
        #expect(sourceAndID.sorted() == ["digest 101", "notes n1"], "\(run.stdout)\n\(run.stderr)")
        #expect(server.requests(path: "/search").count == 1)

        let providers = try await release.run(binary, ["providers"], in: directory)
        for scaffold in scaffolds {
            #expect(providers.stdout.contains("\(scaffold.name.providerName) — "), "\(providers.stdout)")
        }
        #expect(providers.stdout.contains("files — "))
    }
}
