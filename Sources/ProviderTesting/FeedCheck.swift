import Foundation

/// What real feed software makes of our feeds (Resources/feedcheck.py): python feedparser's reading of an Atom
/// or RSS document, or a JSON Feed checked against the JSON Feed 1.1 schema. Shared by the feed renderers' tests
/// and the server's. Needs python3 with feedparser and jsonschema (`.ci/run` installs them); without them the
/// check throws, saying what to install.
public enum FeedCheck {
    /// What python feedparser made of a feed document.
    public struct Reading: Decodable, Sendable {
        /// One entry as feedparser read it.
        public struct Entry: Decodable, Sendable {
            /// The entry's id (Atom `id`, RSS `guid`), if it has one.
            public var id: String?
            /// The entry's title, if it has one.
            public var title: String?
            /// The entry's link, if it has one.
            public var link: String?
            /// The entry's publication time in seconds since 1970, if feedparser could read one.
            public var published: Double?
        }

        /// Whether feedparser found the document ill-formed (its `bozo` flag): a valid feed has it false.
        public var bozo: Bool
        /// Why the document is ill-formed; empty when it is not.
        public var error: String
        /// The format feedparser recognised (`atom10`, `rss20`, …); empty when none.
        public var version: String
        /// The entries, in document order.
        public var entries: [Entry]
    }

    struct Validation: Decodable {
        var errors: [String]
    }

    /// The check could not run: a resource or a python module is missing, or its answer was unreadable.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong and, when a python module is missing, what to install.
        public var description: String
    }

    /// Parses `document` (Atom or RSS) with python feedparser.
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
