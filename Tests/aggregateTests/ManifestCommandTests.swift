import Foundation
import Testing

@Suite("aggregate validate, list, providers, help (end to end)")
struct ManifestCommandTests {
    @Test("an invalid manifest exits 78, lists every problem with its path, and fetches nothing")
    func invalidManifest() async throws {
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "sources": [
              {"id": "a", "provider": "files", "options": {"paths": "data/*.csv", "formt": "csv"}},
              {"id": "b", "provider": "flies"}
            ]}
            """)
        for arguments in [["--format", "json"], ["validate"]] {
            let result = try await Aggregate.run(arguments + ["--manifest", sandbox.manifestPath])
            #expect(result.status == 78)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("sources[0].options.paths: expected an array"))
            #expect(result.stderr.contains("sources[0].options.formt: unknown option (did you mean 'format'?)"))
            #expect(result.stderr.contains("sources[1].provider: unknown provider 'flies' (did you mean 'files'?)"))
        }
    }

    @Test("a missing manifest exits 78 and names the path")
    func missingManifest() async throws {
        let result = try await Aggregate.run(["--manifest", "/nonexistent/m.json"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("/nonexistent/m.json: no such file"))
    }

    @Test("validate accepts a good manifest and notes missing variables")
    func validate() async throws {
        let sandbox = try Sandbox(manifest: RunCommandTests.manifest)
        let result = try await Aggregate.run(["validate", "--manifest", sandbox.manifestPath], removing: ["DATA_DIR"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("valid (4 sources, 3 enabled)"))
    }

    @Test("list shows each source's provider and whether it would run")
    func list() async throws {
        let sandbox = try Sandbox(manifest: RunCommandTests.manifest)
        let result = try await Aggregate.run(["list", "--manifest", sandbox.manifestPath], removing: ["DATA_DIR"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("SOURCE"))
        let secret = result.stdout.split(separator: "\n").first { $0.hasPrefix("secret") } ?? ""
        #expect(secret.contains("disabled"))
    }

    @Test("providers lists the registered providers with their options")
    func providers() async throws {
        let result = try await Aggregate.run(["providers"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("files — "))
        #expect(result.stdout.contains("openweather — "))
        #expect(result.stdout.contains("paths"))
        // The second implementations of the weather, issue and feed-like capabilities, with their own options.
        for (provider, option) in [("open-meteo", "geocodingBaseURL"), ("gitlab", "tokenType"), ("hacker-news", "itemKind"),
                                   ("html", "maxItemsPerPage")] {
            #expect(result.stdout.contains("\(provider) — "), "\(provider) is not listed")
            #expect(result.stdout.contains("  \(option)  "), "\(provider)'s \(option) is not documented")
        }
        #expect(result.stdout.contains(#"apiKey  string  (required, secret: or {"fromFile": PATH} / {"fromCommand": [...]})"#))
    }

    @Test("--help teaches: examples and exit codes")
    func help() async throws {
        let result = try await Aggregate.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("EXAMPLES"))
        #expect(result.stdout.contains("78"))
        #expect(result.stdout.contains("--sources"))
    }
}
