#if os(Linux)
import Foundation
import Testing

/// libxml2 and libjq are loaded by the first feed parsed and the first `--jq` filter compiled, not by every start
/// (CLibraryOnDemand): a run that needs neither does not load them or what they bring (ICU, liblzma, libonig).
/// glibc's `LD_DEBUG=files` names every library the process loads, at start or with `dlopen`, on stderr.
@Suite("aggregate: system libraries loaded on demand (end to end)")
struct LibrariesOnDemandEndToEndTests {
    static let manifest = """
        {"version": 1, "sources": [
          {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.json"]}},
          {"id": "blog", "provider": "files", "options": {"paths": ["data/blog.rss"]}}
        ]}
        """
    static let files = [
        "data/notes.json": #"[{"id": "1", "title": "hello"}]"#,
        "data/blog.rss": """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Blog</title><link>https://blog.example.org/</link>
            <item><title>Caf\u{E9} &amp; more</title><link>https://blog.example.org/1</link><guid>b1</guid></item>
            </channel></rss>
            """,
    ]

    private func run(_ arguments: [String]) async throws -> (result: CommandResult, loaded: [String]) {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let result = try await Aggregate.run(
            arguments + ["--manifest", sandbox.manifestPath], environment: ["LD_DEBUG": "files"])
        // "  1234:\tfile=libxml2.so.2 [0];  dynamically loaded by …" (or "needed by …" at start)
        let loaded = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " })
        }
        return (result, loaded)
    }

    @Test("a run of a JSON file loads neither libxml2, ICU nor libjq")
    func jsonRun() async throws {
        let (result, loaded) = try await run(["--sources", "notes", "-f", "ndjson"])
        #expect(result.status == 0, "\(result.stderr.suffix(2_000))")
        #expect(result.stdout.contains(#""title":"hello""#))
        #expect(loaded.contains { $0.hasPrefix("libsqlite3") }, "LD_DEBUG names what is loaded: \(loaded)")
        #expect(!loaded.contains { $0.hasPrefix("libxml2") || $0.hasPrefix("libicu") || $0.hasPrefix("libjq") },
                "\(loaded)")
    }

    @Test("the first feed parsed loads libxml2, and the feed's items come out as before")
    func feedRun() async throws {
        let (result, loaded) = try await run(["--sources", "blog", "-f", "ndjson"])
        #expect(result.status == 0, "\(result.stderr.suffix(2_000))")
        #expect(result.stdout.contains(#""title":"Café & more""#))
        #expect(result.stdout.contains(#""url":"https://blog.example.org/1""#))
        #expect(loaded.contains { $0.hasPrefix("libxml2") }, "\(loaded)")
        #expect(!loaded.contains { $0.hasPrefix("libjq") }, "\(loaded)")
    }

    @Test("--jq loads libjq by its first filter and prints what jq prints")
    func jqRun() async throws {
        let (result, loaded) = try await run(["--sources", "notes", "--jq", ".items[].title"])
        #expect(result.status == 0, "\(result.stderr.suffix(2_000))")
        #expect(result.stdout == "hello\n")
        #expect(loaded.contains { $0.hasPrefix("libjq") }, "\(loaded)")
        #expect(!loaded.contains { $0.hasPrefix("libxml2") }, "\(loaded)")
    }
}
#endif
