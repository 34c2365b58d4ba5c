import Foundation

/// What real feed software makes of our feeds (Resources/feedcheck.py): python feedparser's reading of an Atom
/// or RSS document, or a JSON Feed checked against the JSON Feed 1.1 schema. Shared by the feed renderers' tests
/// and the server's. Needs python3 with feedparser and jsonschema (`.ci/run` installs them); without them the
/// check throws, saying what to install.
public enum FeedCheck {
    public struct Reading: Decodable, Sendable {
        public struct Entry: Decodable, Sendable {
            public var id: String?
            public var title: String?
            public var link: String?
            public var published: Double?
        }

        public var bozo: Bool
        public var error: String
        public var version: String
        public var entries: [Entry]
    }

    struct Validation: Decodable {
        var errors: [String]
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func feedparser(_ document: String) async throws -> Reading {
        try await run(["xml"], document: document, as: Reading.self)
    }

    /// The schema's complaints (none: valid).
    public static func validateJSONFeed(_ document: String) async throws -> [String] {
        guard let schema = Bundle.module.url(forResource: "jsonfeed-1.1.schema", withExtension: "json", subdirectory: "Resources")
        else { throw Failure(description: "jsonfeed-1.1.schema.json is missing from ProviderTesting's resources") }
        return try await run(["jsonfeed"], document: document, trailing: [schema.path], as: Validation.self).errors
    }

    private static func run<T: Decodable>(
        _ arguments: [String], document: String, trailing: [String] = [], as type: T.Type
    ) async throws -> T {
        guard let script = Bundle.module.url(forResource: "feedcheck", withExtension: "py", subdirectory: "Resources") else {
            throw Failure(description: "feedcheck.py is missing from ProviderTesting's resources")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path] + arguments + [file.path] + trailing,
            environment: ProcessInfo.processInfo.environment)
        guard result.status == 0 else {
            throw Failure(description: """
                feedcheck.py failed (\(result.status)): \(result.stderr)
                It needs python3 with feedparser and jsonschema: `python3 -m pip install feedparser jsonschema` \
                (.ci/run installs them).
                """)
        }
        return try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
    }
}
