@testable import App
import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Testing

/// Secret references beyond provider options: each value of an exec source's `env`, and sink credentials.
@Suite("Secret references in env values and sinks")
struct SecretPlacesTests {
    static let secret = "env-s3cret-from-file"

    private func project(_ manifest: String) throws -> URL {
        let root = ScratchDirectory.path("aggregate-secret-places")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let file = root.appendingPathComponent("greeting.secret")
        try Data((Self.secret + "\n").utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let url = root.appendingPathComponent("manifest.json")
        try Data(manifest.utf8).write(to: url)
        return url
    }

    @Test("an exec source's env value from a file reaches the program, and only the program")
    func execEnvironment() async throws {
        let url = try project(#"""
            {"version": 1, "sources": [{"id": "hello", "provider": "exec", "options": {
              "command": ["sh", "-c", "printf '{\"type\":\"item\",\"id\":\"1\",\"title\":\"%s\"}\\n' \"$${#GREETING}\""],
              "env": {"GREETING": {"fromFile": "greeting.secret"}, "PLAIN": "x"}}}]}
            """#)
        let container = try AppDIContainer.load(manifestAt: url, environment: ["AGGREGATE_HOME": url.deletingLastPathComponent().appendingPathComponent("home").path, "PATH": "/usr/bin:/bin"])
        let source = try #require(try await container.engine.run(RunRequest()).report.sources.first)
        #expect(source.status == .ok, "\(source.error?.message ?? "")")
        #expect(source.items.map(\.title) == [String(Self.secret.count)], "the program saw the file's text (its length printed)")
    }

    @Test("a bad reference in env or in a sink credential is a manifest problem with its path")
    func problems() throws {
        let url = try project(#"""
            {"version": 1, "sources": [{"id": "hello", "provider": "exec", "options": {
              "command": ["true"], "env": {"TOKEN": {"fromFile": 3}}}}],
             "sinks": [{"id": "phone", "type": "ntfy", "url": "https://ntfy.sh/x", "token": {"fromNowhere": "x"}},
                       {"id": "mail", "type": "email", "url": "smtp://mail.example.org", "from": "a@example.org", "to": ["b@"],
                        "password": {"fromCommand": []}, "digest": "weekly"}]}
            """#)
        let error = try #require(throws: ManifestError.self) { try AppDIContainer.load(manifestAt: url, environment: [:]) }
        let paths = Set(error.problems.map(\.path))
        #expect(paths.isSuperset(of: [
            "sources[0].options.env.TOKEN.fromFile", "sinks[0].token", "sinks[1].to[0]", "sinks[1].password.fromCommand",
            "sinks[1].digest",
        ]), "\(error.problems)")
    }

    @Test("a sink's credential reference is read when it sends, never while validating")
    func sinkReferenceReadLate() async throws {
        let url = try project(#"""
            {"version": 1, "sources": [],
             "sinks": [{"id": "hook", "type": "webhook", "url": "https://hooks.example.org/x", "secret": {"fromFile": "missing.secret"}}]}
            """#)
        let container = try AppDIContainer.load(manifestAt: url, environment: [:])
        let sink = try #require(container.manifest.sinks.first)
        let result = await withCheckedContinuation { continuation in
            container.sinkDirectory.transport(for: sink, cancellation: nil) { continuation.resume(returning: $0) }
        }
        guard case .failure(let error) = result else { Issue.record("a missing secret file must fail the sink"); return }
        #expect(error.message.contains("secret: secret file"), "\(error.message)")
    }
}
