import Foundation
import ProviderTesting
import Testing

/// `--since`, `--sort date`, `--dedupe`, `--jq` and `--template` through the built binary.
@Suite("aggregate: shaping the output (end to end)")
struct ShapingEndToEndTests {
    static let manifest = """
        {"version": 1, "defaults": {"timeoutSeconds": 60}, "sources": [
          {"id": "news", "provider": "files", "options": {"paths": ["data/news.ndjson"]}},
          {"id": "blog", "provider": "files", "options": {"paths": ["data/blog.ndjson"]}}
        ]}
        """

    static let files = [
        "data/news.ndjson": """
            {"id": "n1", "title": "Swift 7 released", "url": "https://example.com/swift-7/?utm_source=news#top", "date": "2026-11-20T08:00:00Z"}
            {"id": "n2", "title": "Old story", "url": "https://example.com/old", "date": "2026-10-01T00:00:00Z"}
            {"id": "n3", "title": "Rust 2 released", "url": "https://example.com/rust-2", "date": "2026-11-21T09:00:00Z"}

            """,
        "data/blog.ndjson": """
            {"id": "b1", "title": "Swift 7 Released!", "url": "http://example.com/swift-7?fbclid=x", "date": "2026-11-20T08:00:00Z", "author": "Ann"}
            {"id": "b2", "title": "A blog post", "url": "https://blog.example.org/post", "date": "2026-11-22T06:00:00Z"}

            """,
    ]

    private func run(_ arguments: [String]) async throws -> CommandResult {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        return try await Aggregate.run(arguments + ["--manifest", sandbox.manifestPath])
    }

    @Test("--dedupe url --sort date --since: one copy of the story (the fuller one, alsoIn), newest first across sources")
    func shapeJSON() async throws {
        let result = try await run(["-f", "json", "--dedupe", "url", "--sort", "date", "--since", "2026-11-01"])
        #expect(result.status == 0)
        let items = try result.items()
        #expect(items.map { $0["id"] as? String } == ["b2", "n3", "b1"])
        let fields = try #require(items[2]["fields"] as? [String: Any])
        #expect(fields["alsoIn"] as? [String] == ["news"])
    }

    @Test("--dedupe while NDJSON streams: the first copy in output order, once")
    func shapeStream() async throws {
        let result = try await run(["-f", "ndjson", "--dedupe", "title"])
        #expect(result.status == 0)
        let ids = result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids == ["n1", "n2", "n3", "b2"])
    }

    @Test("--jq prints what jq -r prints on the JSON output", arguments: [
        #".items[] | "\(.source) \(.title)""#, ".items | group_by(.source) | map(length)",
        ".items[] | [.id, .date] | @csv",
    ])
    func jqReport(_ expression: String) async throws {
        let plain = try await run(["-f", "json"])
        let shaped = try await run(["--jq", expression])
        let expected = try await JQProgram.run(["-r", expression], input: plain.stdout)
        #expect(shaped.status == 0)
        #expect(shaped.stdout == expected.stdout)
        #expect(!shaped.stdout.isEmpty)
    }

    @Test("-f ndjson --jq applies to each item, as jq -rc over the lines; a failing item is reported, the rest printed, exit 5")
    func jqItems() async throws {
        let expression = #"if .id == "n2" then error("no \(.id)") else .url end"#
        let plain = try await run(["-f", "ndjson"])
        let shaped = try await run(["-f", "ndjson", "--jq", expression])
        let expected = try await JQProgram.run(["-rc", expression], input: plain.stdout)
        #expect(shaped.stdout == expected.stdout)
        #expect(shaped.stdout.split(separator: "\n").count == 4)
        #expect(shaped.stderr.contains("jq: error (at item 2): no n2"))
        #expect(shaped.status == 5)  // any item failed (jq 1.7 does the same; 1.6 exits with the last item's status)
    }

    @Test("a jq syntax error exits 64 with jq's message, before anything runs")
    func jqSyntaxError() async throws {
        let result = try await run(["--jq", ".items[] | map("])
        let expected = try await JQProgram.run([".items[] | map("], input: "{}")
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        for line in expected.stderr.split(separator: "\n") {
            #expect(result.stderr.contains(line), "jq's line '\(line)' is missing from: \(result.stderr)")
        }
    }

    @Test("--template prints a digest; a template error exits 64 naming its line")
    func template() async throws {
        let result = try await run(["--template", "{{#items}}{{padLeft4(source)}} {{{truncate10(title)}}}\n{{/items}}", "--limit", "1"])
        #expect(result.status == 0)
        #expect(result.stdout == "news Swift 7 r…\nblog Swift 7 R…\n")
        let broken = try await run(["--template", "line one\n{{#items}}\n{{/item}}"])
        #expect(broken.status == 64)
        #expect(broken.stderr.contains("template line 3"))
    }

    @Test("watch -f ndjson --dedupe --jq: each story once across sources and cycles, through the filter")
    func watch() async throws {
        let manifest = Self.manifest.replacingOccurrences(of: #""timeoutSeconds": 60"#, with: #""timeoutSeconds": 60, "refreshSeconds": 0.2"#)
        let sandbox = try Sandbox(manifest: manifest, files: Self.files)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        let watch = try LiveProcess.start(
            Aggregate.binary,
            ["watch", "-f", "ndjson", "--dedupe", "title", "--jq", #""\(.source)/\(.id)""#, "--stop-after", "120",
             "--manifest", sandbox.manifestPath],
            environment: environment)
        let firstCycles = await watch.waitFor { stdout, _ in stdout.split(separator: "\n").count >= 4 }
        // A later cycle of news brings a copy of blog's story (dropped) and a new one (shown).
        let news = sandbox.root.appendingPathComponent("data/news.ndjson")
        let more = #"{"id": "n4", "title": "a blog post", "url": "https://example.com/n4"}"# + "\n"
            + #"{"id": "n5", "title": "Fresh", "url": "https://example.com/n5"}"# + "\n"
        try Data((Self.files["data/news.ndjson", default: ""] + more).utf8).write(to: news)
        let sawFresh = await watch.waitFor { stdout, _ in stdout.contains("news/n5") }
        watch.signal(SIGTERM)
        let result = await watch.finish()

        #expect(firstCycles && sawFresh, "stderr: \(result.stderr)")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // The two sources' first cycles start in either order: the story's first copy is the one shown.
        #expect(lines.count == 5, "\(lines)")
        #expect(Set(lines).isSuperset(of: ["blog/b2", "news/n2", "news/n3", "news/n5"]))
        #expect(lines.contains("news/n1") != lines.contains("blog/b1"))
        #expect(!lines.contains("news/n4"))
    }

    @Test("bad combinations are usage errors", arguments: [
        ["--jq", ".", "-f", "table"], ["--jq", ".", "--template", "x"], ["--template", "x", "-f", "json"],
        ["--since", "yesterday"], ["--dedupe", "guid"], ["watch", "-f", "json", "--jq", "."],
    ])
    func usage(_ arguments: [String]) async throws {
        #expect(try await run(arguments).status == 64)
    }
}
