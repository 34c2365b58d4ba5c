import Foundation
import ProviderScaffold
import ProviderTesting
import Testing

/// docs/WRITING_A_PROVIDER.md, followed as a new user would on a clean copy of the package: run the plugin
/// (once per capability, so no template can rot), paste the printed lines, run the new tests with the
/// command the guide gives (`AGGREGATE_ONLY=App,… swift test --filter …`).
///
/// Slow by nature (it builds a package, SwiftNIO and two BoringSSLs included, since App links the second
/// HTTP transport), at low priority beside the rest of the suite: 327 s on 2 cores otherwise idle, more than
/// 15 minutes with other builds running (load average 10). Set AGGREGATE_SKIP_SCAFFOLD_BUILD=1 to skip it
/// while iterating on something else.
@Suite("new-provider plugin, end to end")
struct NewProviderPluginTests {
    static let providers: [(name: String, capability: Capability, target: String)] = [
        ("Tech Digest", .records, "TechDigestProvider"),
        ("Sky Watch", .weather, "SkyWatchProvider"),
        ("Bug Base", .issues, "BugBaseProvider"),
        ("Film Finder", .movies, "FilmFinderProvider"),
        ("Note Feed", .feed, "NoteFeedProvider"),
    ]

    @Test("the guide's steps on a clean copy end in passing tests for every capability",
          .enabled(if: ProcessInfo.processInfo.environment["AGGREGATE_SKIP_SCAFFOLD_BUILD"] == nil),
          .timeLimit(.minutes(40)))
    func guideEndsInPassingTests() async throws {
        let copy = try PackageCopy()
        defer { copy.remove() }

        // 1. Scaffold.
        for provider in Self.providers {
            let result = try await copy.swift([
                "package", "--allow-writing-to-package-directory", "new-provider",
                "--name", provider.name, "--capability", provider.capability.rawValue,
            ])
            try #require(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("Sources/\(provider.target)/\(provider.target).swift"))
            // 2. Register: the printed Package.swift lines and the registry line.
            try copy.register(from: result.stdout, target: provider.target)
        }

        // The scaffold never overwrites, and names are validated before anything is written.
        let again = try await copy.swift([
            "package", "--allow-writing-to-package-directory", "new-provider", "--name", "Tech Digest", "--capability", "feed",
        ])
        #expect(again.status != 0)
        #expect(again.stderr.contains("refusing to overwrite"), "\(again.stderr)")
        let badName = try await copy.swift([
            "package", "--allow-writing-to-package-directory", "new-provider", "--name", "Tech-Digest!", "--capability", "records",
        ])
        #expect(badName.status != 0)
        #expect(badName.stderr.contains("use only letters"), "\(badName.stderr)")

        // 3. Run the tests, as the guide says (one filter for all five), building only App and the new targets.
        let targets = ["App"] + Self.providers.map { $0.target + "Tests" }
        let filter = Self.providers.map { $0.target + "Tests" }.joined(separator: "|")
        let test = try await copy.swift(["test", "--filter", filter], only: targets)
        try #require(test.status == 0, "\(test.stdout.suffix(6000))\n\(test.stderr.suffix(4000))")
        let warnings = (test.stdout + test.stderr).split(separator: "\n").filter {
            $0.contains("warning:") && $0.contains(copy.root.path) && !$0.contains("/.build/")
        }
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(test.stdout.contains("Test run with") && test.stdout.contains("passed"))
        for provider in Self.providers {
            #expect(test.stdout.contains("Suite \"\(provider.name) provider\" passed"), "\(provider.name)")
            #expect(test.stdout.contains("Suite \"\(provider.name) provider conformance\" passed"), "\(provider.name)")
        }
    }
}
