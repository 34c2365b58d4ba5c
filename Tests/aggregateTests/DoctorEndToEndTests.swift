import Foundation
import ProviderTesting
import Testing

/// `aggregate doctor`: one line per check, the fix beside each failure, exit 1 when any failed, no secret shown.
@Suite("aggregate doctor (end to end)")
struct DoctorEndToEndTests {
    @Test("the shipped manifest, offline and without keys: every check passes, keyed sources are listed with their variable")
    func shippedManifest() async throws {
        let result = try await Aggregate.run(
            ["doctor", "--offline"], in: Aggregate.packageRoot, removing: FirstRunEndToEndTests.keys)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("✓ manifest: manifest.json is valid (7 sources, 3 enabled)") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("– weather: disabled (openweather); needs $OPENWEATHER_API_KEY — set OPENWEATHER_API_KEY") })
        #expect(lines.contains { $0.hasPrefix("– movies: disabled (tmdb); needs $TMDB_API_KEY") })
        #expect(lines.contains { $0.hasPrefix("✓ words: program ./Examples/exec/word_counts.py is executable") })
        #expect(lines.contains { $0.hasPrefix("✓ words: python3 is ") })
        #expect(lines.contains { $0.hasPrefix("✓ data directory: ") && $0.hasSuffix("is writable") })
        #expect(lines.contains { $0.hasPrefix("✓ store: ") && $0.contains("schema v") })
        #expect(lines.last == "all checks passed")
    }

    @Test("failures name their fix and exit 1; hosts are checked by DNS and TCP (the proxy when one applies), never showing a secret")
    func failuresAndHosts() async throws {
        let server = try await FixtureServer.start()
        let refused = try await FixtureServer.refusedURL()
        let secret = "s3cretPROXYpassw0rd"
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "sources": [
              {"id": "weather", "provider": "openweather", "options": {"cities": ["Seoul"], "apiKey": "${DOCTOR_TEST_KEY}"}},
              {"id": "prog", "provider": "exec", "options": {"command": ["./not-executable.sh"]}},
              {"id": "movies", "provider": "tmdb", "options": {"query": "x", "apiKey": {"fromFile": "key.txt"},
                                                                "baseURL": "\(server.baseURL.absoluteString)"}},
              {"id": "news", "provider": "feed", "options": {"urls": ["\(refused.absoluteString)/feed.xml"]}},
              {"id": "proxied", "provider": "feed", "options": {"urls": ["http://example.com/feed.xml"],
                                                               "proxy": "http://user:\(secret)@127.0.0.1:\(server.port)"}}
            ]}
            """, files: ["not-executable.sh": "#!/bin/sh\n", "key.txt": "tmdb-key-never-shown\n"])
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644], ofItemAtPath: sandbox.root.appendingPathComponent("key.txt").path)
        let result = try await Aggregate.run(["doctor", "--manifest", sandbox.manifestPath], removing: ["DOCTOR_TEST_KEY"])
        let offline = try await Aggregate.run(["doctor", "--offline", "--manifest", sandbox.manifestPath], removing: ["DOCTOR_TEST_KEY"])
        await server.stop()
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("✗ weather: needs $DOCTOR_TEST_KEY, which is not set — fix: export DOCTOR_TEST_KEY=") })
        #expect(lines.contains { $0.hasPrefix("✗ prog: command './not-executable.sh' is not executable") && $0.contains("fix: chmod +x") })
        let key = sandbox.root.appendingPathComponent("key.txt").standardizedFileURL.path
        #expect(lines.contains { $0.hasPrefix("✗ movies: apiKey: secret file \(key) may be read by other users (mode 644) — fix: chmod 600 \(key)") })
        #expect(lines.contains { $0.hasPrefix("✓ movies: 127.0.0.1 resolves to 127.0.0.1") })
        #expect(lines.contains { $0.hasPrefix("✓ movies: 127.0.0.1:\(server.port) accepts TCP connections") })
        #expect(lines.contains { $0.hasPrefix("✗ news: 127.0.0.1:\(refused.port!) does not accept TCP connections") && $0.contains("fix: ") })
        #expect(lines.contains {
            $0.hasPrefix("✓ proxied: http://example.com:80 via libcurl; CA: the system's")
                && $0.hasSuffix("proxy: http://127.0.0.1:\(server.port)")
        }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("✓ proxied: proxy http://127.0.0.1:\(server.port) accepts TCP connections") })
        #expect(!lines.contains { $0.contains("example.com resolves") }, "behind a proxy the proxy resolves the host")
        #expect(lines.last?.hasSuffix("checks failed") == true)
        for output in [result.stdout, result.stderr, offline.stdout, offline.stderr] {
            #expect(!output.contains(secret))
            #expect(!output.contains("tmdb-key-never-shown"))
        }
        #expect(offline.stdout.contains("– news: DNS and TCP checks of 127.0.0.1 skipped (--offline)"))
        #expect(!offline.stdout.contains("accepts TCP connections"))
    }

    @Test("a shared store that cannot be reached fails with its fix, its password never shown")
    func unreachableSharedStore() async throws {
        let refused = try await FixtureServer.refusedURL()
        let sandbox = try Sandbox(manifest: #"{"version": 1, "sources": []}"#)
        let password = "pgPASSWORDnever"
        let result = try await Aggregate.run(
            ["doctor", "--offline", "--manifest", sandbox.manifestPath],
            environment: ["AGGREGATE_STORE": "postgres://agg:\(password)@127.0.0.1:\(refused.port!)/aggregate"])
        #expect(result.status == 1)
        let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("✗ store: PostgreSQL store ") }
        #expect(line?.contains("cannot be used") == true, "\(result.stdout)")
        #expect(line?.contains("fix: start the server or correct the URL") == true)
        #expect(!result.stdout.contains(password) && !result.stderr.contains(password))
    }

    @Test("a shared store that is reachable passes", .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
    func reachableSharedStore() async throws {
        let url = try await TestPostgres.makeDatabase()
        let sandbox = try Sandbox(manifest: #"{"version": 1, "sources": []}"#)
        let result = try await Aggregate.run(
            ["doctor", "--offline", "--manifest", sandbox.manifestPath], environment: ["AGGREGATE_STORE": url])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("✓ store: PostgreSQL store ") && $0.hasSuffix("is reachable") }, "\(lines)")
        #expect(lines.last == "all checks passed")
    }
}
