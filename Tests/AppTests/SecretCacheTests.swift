@testable import App
import Domain
import Foundation
import ProviderKit
import Testing

@Suite("Secret references in a long-running container")
struct SecretCacheTests {
    /// The echo provider with its `apiKey` marked secret, so it may be given by reference.
    static let registry: ProviderRegistry = {
        var keyed = EchoProvider(name: "keyed", acceptsQuery: false)
        keyed.options = keyed.options.map { spec in
            spec.name == "apiKey" ? OptionSpec("apiKey", "string", secret: true, help: "Key.") : spec
        }
        return ProviderRegistry([keyed])
    }()

    @Test("a credential helper is asked once per container, not at every run; a reloaded manifest asks again")
    func helperAskedOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let helper = directory.appendingPathComponent("helper.sh")
        try Data("#!/bin/sh\necho asked >> asked.log\necho key-7f3a91\n".utf8).write(to: helper)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: helper.path)
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data("""
            {"version": 1, "sources": [
              {"id": "k", "provider": "keyed", "options": {"cities": ["x"], "apiKey": {"fromCommand": ["./helper.sh"]}}}
            ]}
            """.utf8).write(to: manifest)
        let environment = ["AGGREGATE_HOME": directory.appendingPathComponent("home").path, "PATH": "/usr/bin:/bin"]
        func asked() throws -> Int {
            try String(contentsOf: directory.appendingPathComponent("asked.log"), encoding: .utf8)
                .split(separator: "\n").count
        }

        let container = try AppDIContainer.load(manifestAt: manifest, registry: Self.registry, environment: environment)
        for _ in 0..<3 {
            let outcome = try await container.engine.run(RunRequest())
            #expect(outcome.report.sources.first?.status == .ok)
            #expect(outcome.report.sources.first?.items.first?.fields["apiKey"] == .string("key-7f3a91"))
        }
        #expect(try asked() == 1, "three runs of one container, one question")

        let reloaded = try AppDIContainer.load(manifestAt: manifest, registry: Self.registry, environment: environment)
        _ = try await reloaded.engine.run(RunRequest())
        #expect(try asked() == 2, "a new container (SIGHUP's reload) asks again")
    }
}
