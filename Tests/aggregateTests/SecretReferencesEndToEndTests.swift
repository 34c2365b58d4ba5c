import Foundation
import ProviderTesting
import Testing

/// Secret options given as `{"fromFile": …}` or `{"fromCommand": […]}`, with the GitHub source against the
/// loopback fixture server: the secret reaches the service and nothing else (output, logs, the store).
@Suite("Secrets from a file or a credential helper (end to end)")
struct SecretReferencesEndToEndTests {
    static let secret = "ghp_fromREFERENCE0123456789abcdefREFERENCE"

    struct Project {
        let root: URL
        let home: URL

        init() throws {
            root = ScratchDirectory.path("aggregate-secrets")
            home = root.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        }

        func write(_ name: String, _ text: String, mode: Int) throws {
            let url = root.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        }

        func manifest(token: String, baseURL: URL, timeoutSeconds: Double = 10) throws -> String {
            let text = """
                {"version": 1, "sources": [{"id": "issues", "provider": "github", "timeoutSeconds": \(timeoutSeconds),
                  "options": {"repos": ["octo-org/alpha"], "baseURL": "\(baseURL.absoluteString)", "token": \(token)}}]}
                """
            try write("manifest.json", text, mode: 0o644)
            return root.appendingPathComponent("manifest.json").path
        }

        /// Every file the run left in its data directory (the store), as bytes.
        func storeContents() throws -> [Data] {
            let files = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            return files.compactMap { try? Data(contentsOf: $0) }
        }
    }

    static func run(_ project: Project, _ arguments: [String]) async throws -> CommandResult {
        try await Aggregate.run(arguments, environment: ["AGGREGATE_HOME": project.home.path], removing: ["GITHUB_TOKEN"])
    }

    static func server() async throws -> FixtureServer {
        let server = try await FixtureServer.start()
        server.route("/repos/octo-org/alpha/issues", .json(GitHubEndToEndTests.page("octo-org/alpha")))
        return server
    }

    /// The secret appears in none of the texts, nor in any file of the store.
    static func expectNowhere(_ texts: [String], _ project: Project) throws {
        for text in texts { #expect(!text.contains(secret)) }
        let stored = try project.storeContents()
        #expect(!stored.isEmpty, "the run kept a store")
        for data in stored { #expect(data.range(of: Data(secret.utf8)) == nil, "the store holds the secret") }
    }

    @Test("a token read from a private file (trailing newline trimmed) or printed by a helper reaches the service only",
          arguments: ["file", "command"])
    func secretReachesTheServiceOnly(kind: String) async throws {
        let project = try Project()
        defer { try? FileManager.default.removeItem(at: project.root) }
        let server = try await Self.server()
        try project.write("token", Self.secret + "\n", mode: 0o600)
        try project.write("helper.sh", "#!/bin/sh\ncat \"$1\"\n", mode: 0o755)
        let reference = kind == "file" ? #"{"fromFile": "token"}"# : #"{"fromCommand": ["./helper.sh", "token"]}"#
        let manifest = try project.manifest(token: reference, baseURL: server.baseURL)
        var texts: [String] = []
        for format in ["json", "table"] {
            let result = try await Self.run(project, ["--manifest", manifest, "--verbose", "-f", format])
            #expect(result.status == 0, "\(result.stderr)")
            texts += [result.stdout, result.stderr]
        }
        let listed = try await Self.run(project, ["list", "--manifest", manifest])
        let validated = try await Self.run(project, ["validate", "--manifest", manifest])
        let requests = server.requests
        await server.stop()
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.header("Authorization") == "Bearer \(Self.secret)" })
        try Self.expectNowhere(texts + [listed.stdout, listed.stderr, validated.stdout, validated.stderr], project)
    }

    @Test("a secret file others may read is refused with the chmod that fixes it, and nothing is sent")
    func groupReadableFileRefused() async throws {
        let project = try Project()
        defer { try? FileManager.default.removeItem(at: project.root) }
        let server = try await Self.server()
        try project.write("token", Self.secret, mode: 0o640)
        let manifest = try project.manifest(token: #"{"fromFile": "token"}"#, baseURL: server.baseURL)
        let result = try await Self.run(project, ["--manifest", manifest, "-f", "json"])
        let requests = server.requests
        await server.stop()
        #expect(result.status == 1)
        let path = project.root.appendingPathComponent("token").standardizedFileURL.path
        #expect(result.stdout.contains("chmod 600 \(path)"), "\(result.stdout)")
        #expect(requests.isEmpty)
        #expect(!result.stdout.contains(Self.secret) && !result.stderr.contains(Self.secret))
    }

    @Test("a failing helper's stderr is shown, never what it printed on stdout")
    func failingHelperShowsStderr() async throws {
        let project = try Project()
        defer { try? FileManager.default.removeItem(at: project.root) }
        let server = try await Self.server()
        try project.write("helper.sh", """
            #!/bin/sh
            echo "\(Self.secret)"
            echo "gpg: decryption failed: No secret key" >&2
            exit 2
            """, mode: 0o755)
        let manifest = try project.manifest(token: #"{"fromCommand": ["./helper.sh"]}"#, baseURL: server.baseURL)
        let result = try await Self.run(project, ["--manifest", manifest, "-f", "json", "--verbose"])
        let requests = server.requests
        await server.stop()
        #expect(result.status == 1)
        #expect(result.stdout.contains("credential helper './helper.sh' exited with status 2: gpg: decryption failed"))
        #expect(requests.isEmpty)
        try Self.expectNowhere([result.stdout, result.stderr], project)
    }

    @Test("a helper that never ends is stopped at the source's timeout")
    func hangingHelperTimesOut() async throws {
        let project = try Project()
        defer { try? FileManager.default.removeItem(at: project.root) }
        let server = try await Self.server()
        try project.write("helper.sh", "#!/bin/sh\nsleep 300\n", mode: 0o755)  // a helper that never answers
        let manifest = try project.manifest(token: #"{"fromCommand": ["./helper.sh"]}"#, baseURL: server.baseURL, timeoutSeconds: 1)
        let result = try await Self.run(project, ["--manifest", manifest, "-f", "json"])
        await server.stop()
        #expect(result.status == 1)
        let source = try #require(try result.sources().first)
        #expect(source["status"] as? String == "timeout", "\(source)")
    }

    @Test("validate checks a reference's form but reads no file and runs no helper")
    func validateRunsNothing() async throws {
        let project = try Project()
        defer { try? FileManager.default.removeItem(at: project.root) }
        let marker = project.root.appendingPathComponent("ran")
        try project.write("helper.sh", "#!/bin/sh\ntouch '\(marker.path)'\necho x\n", mode: 0o755)
        let good = try project.manifest(token: #"{"fromCommand": ["./helper.sh"]}"#, baseURL: URL(string: "https://example.com")!)
        let valid = try await Self.run(project, ["validate", "--manifest", good])
        #expect(valid.status == 0, "\(valid.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        let bad = try project.manifest(token: #"{"fromFile": 3}"#, baseURL: URL(string: "https://example.com")!)
        let invalid = try await Self.run(project, ["validate", "--manifest", bad])
        #expect(invalid.status == 78)
        #expect(invalid.stderr.contains("sources[0].options.token.fromFile: expected the path of a file holding the secret"))
    }
}
