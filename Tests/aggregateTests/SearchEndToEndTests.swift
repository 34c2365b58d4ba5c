import Foundation
import ProviderTesting
import Testing

/// `aggregate search` and `aggregate archive` with the built binary: runs keep what they saw, a later search
/// finds it even after it left its source, and mistakes are usage errors.
@Suite("aggregate search and archive, end to end")
struct SearchEndToEndTests {
    struct Project {
        let root = ScratchDirectory.path("aggregate-search-e2e")
        var home: URL { root.appendingPathComponent("home") }
        var manifest: String { root.appendingPathComponent("manifest.json").path }

        init(retention: String = "") throws {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let retentionMember = retention.isEmpty ? "" : ", \"retention\": \(retention)"
            try """
                { "version": 1, "sources": [
                    { "id": "notes", "provider": "files", "options": { "paths": ["notes.ndjson"] }\(retentionMember) },
                    { "id": "tasks", "provider": "files", "options": { "paths": ["tasks.ndjson"] } } ] }
                """.write(to: URL(fileURLWithPath: manifest), atomically: true, encoding: .utf8)
        }

        func write(_ name: String, _ rows: [(id: String, title: String, text: String)]) throws {
            let lines = rows.map { #"{"id": "\#($0.id)", "title": "\#($0.title)", "text": "\#($0.text)"}"# }
            try (lines.joined(separator: "\n") + "\n").write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }

        /// Runs the binary with `--manifest` after `arguments`, or before them where they hold `--`.
        func run(_ arguments: [String]) async throws -> CommandResult {
            let split = arguments.firstIndex(of: "--") ?? arguments.endIndex
            return try await Aggregate.run(
                Array(arguments[..<split]) + ["--manifest", manifest] + arguments[split...], environment: ["AGGREGATE_HOME": home.path])
        }
    }

    @Test("an item that left its source is still found; results are ranked, filtered, paged and printed in the run's contract")
    func searchesWhatRunsSaw() async throws {
        let project = try Project()
        try project.write("notes.ndjson", [("n1", "Sourdough starter", "feed it flour at nine"),
                                           ("n2", "Bicycle", "new brake pads for the sourdough run")])
        try project.write("tasks.ndjson", [("t1", "Buy flour", "two kilos")])
        #expect(try await project.run(["-f", "ndjson"]).status == 0)
        // n1 leaves its file: the archive keeps it.
        try project.write("notes.ndjson", [("n2", "Bicycle", "new brake pads for the sourdough run")])
        #expect(try await project.run(["-f", "ndjson"]).status == 0)

        let ranked = try await project.run(["search", "sourdough", "-f", "ndjson"])
        #expect(ranked.status == 0, "\(ranked.stderr)")
        let lines = ranked.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.map { $0?["id"] as? String } == ["n1", "n2"], "the title match first, and the item gone from its file is kept")
        #expect(lines.first??["source"] as? String == "notes")

        let table = try await project.run(["search", "flour"])
        #expect(table.stdout.contains("«flour»"), "\(table.stdout)")

        let filtered = try await project.run(["search", "flour", "--sources", "tasks", "-f", "json"])
        #expect(try filtered.items().map { $0["id"] as? String } == ["t1"])

        let first = try await project.run(["search", "flour OR sourdough", "--limit", "2", "-f", "ndjson"])
        let cursor = try #require(first.stderr.split(separator: " ").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) })
        let rest = try await project.run(["search", "flour OR sourdough", "--limit", "2", "--after", cursor, "-f", "ndjson"])
        #expect(first.stdout.split(separator: "\n").count == 2 && rest.stdout.split(separator: "\n").count == 1,
                "\(first.stderr) \(rest.stderr)")
        #expect(rest.stderr.contains("more results") == false)

        let stats = try await project.run(["archive", "stats"])
        #expect(stats.stdout.contains("notes") && stats.stdout.contains("tasks"), "\(stats.stdout)")
    }

    @Test("a query or option that cannot be searched is a usage error naming it; nothing found says so", arguments: [
        (["search", "\"open phrase"], "closing"),
        (["search", "--", "-ios"], "only leaves words out"),
        (["search", "x", "--limit", "0"], "--limit"),
        (["search", "x", "--since", "yesterdayish"], "--since"),
        (["search", "x", "--kind", "tweet"], "unknown kind"),
        (["search", "x", "--after", "nope"], "--after"),
        (["search", "x", "--sources", "nots"], "did you mean 'notes'"),
    ])
    func mistakes(arguments: [String], message: String) async throws {
        let project = try Project()
        try project.write("notes.ndjson", [("n1", "one", "")])
        try project.write("tasks.ndjson", [])
        _ = try await project.run([])
        let result = try await project.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("archive prune keeps each source's retention from the manifest")
    func prune() async throws {
        let project = try Project(retention: #"{"maxItemsPerSource": 2}"#)
        try project.write("notes.ndjson", (1...5).map { ("n\($0)", "note \($0)", "") })
        try project.write("tasks.ndjson", (1...3).map { ("t\($0)", "task \($0)", "") })
        #expect(try await project.run([]).status == 0)
        let pruned = try await project.run(["archive", "prune"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout.contains("removed 3 items"), "\(pruned.stdout)")
        let empty = try await project.run(["search", "zebra"])
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.contains("nothing in the archive matches"))
    }
}

extension SearchEndToEndTests {
    @Test("a URL with a credential is kept redacted: the run prints it as given, the archive never holds the secret")
    func credentialsRedacted() async throws {
        let project = try Project()
        try (#"{"id": "p1", "title": "Private build", "url": "https://ci.example.org/builds/7?token=s3cr3t-value&page=2"}"#
            + "\n" + #"{"id": "p2", "title": "Private mirror", "url": "https://user:hunter2-pass@mirror.example.org/x"}"# + "\n")
            .write(to: project.root.appendingPathComponent("notes.ndjson"), atomically: true, encoding: .utf8)
        try project.write("tasks.ndjson", [("t1", "Buy flour", "two kilos")])
        let run = try await project.run(["-f", "ndjson", "--sources", "notes"])
        #expect(run.status == 0 && run.stdout.contains("s3cr3t-value"), "the run's own output is the provider's: \(run.stderr)")

        let found = try await project.run(["search", "private", "-f", "ndjson"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("token=***&page=2") && found.stdout.contains("***@mirror.example.org"), "\(found.stdout)")
        #expect(!found.stdout.contains("s3cr3t-value") && !found.stdout.contains("hunter2-pass"))
        let nothing = try await project.run(["search", "s3cr3t"])
        #expect(nothing.status == 0 && !nothing.stdout.contains("Private build"), "the secret is not in the index either")
    }
}
