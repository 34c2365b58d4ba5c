import Foundation
import ProviderTesting
import Testing

/// Runs Fixtures/feedcheck.py: python feedparser's reading of an Atom or RSS document, or a JSON Feed checked
/// against the JSON Feed 1.1 schema. Needs python3 with feedparser and jsonschema (`.ci/run` installs them);
/// without them the tests fail, saying what to install.
enum FeedCheck {
    struct Reading: Decodable {
        struct Entry: Decodable {
            var id: String?
            var title: String?
            var link: String?
            var published: Double?
        }

        var bozo: Bool
        var error: String
        var version: String
        var entries: [Entry]
    }

    struct Validation: Decodable {
        var errors: [String]
    }

    static func feedparser(_ document: String) async throws -> Reading {
        try await run(["xml"], document: document, as: Reading.self)
    }

    static func validateJSONFeed(_ document: String) async throws -> [String] {
        let schema = try #require(Bundle.module.url(forResource: "jsonfeed-1.1.schema", withExtension: "json",
                                                    subdirectory: "Fixtures"))
        return try await run(["jsonfeed"], document: document, trailing: [schema.path], as: Validation.self).errors
    }

    private static func run<T: Decodable>(
        _ arguments: [String], document: String, trailing: [String] = [], as type: T.Type
    ) async throws -> T {
        let script = try #require(Bundle.module.url(forResource: "feedcheck", withExtension: "py", subdirectory: "Fixtures"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path] + arguments + [file.path] + trailing,
            environment: ProcessInfo.processInfo.environment)
        guard result.status == 0 else {
            Issue.record("""
                feedcheck.py failed (\(result.status)): \(result.stderr)
                It needs python3 with feedparser and jsonschema: `python3 -m pip install feedparser jsonschema` \
                (.ci/run installs them).
                """)
            throw CancellationError()
        }
        return try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
    }
}
