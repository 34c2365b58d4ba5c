import Foundation
import Testing

@Suite("aggregate run (end to end)")
struct RunCommandTests {
    static let manifest = """
        {"version": 1, "defaults": {"timeoutSeconds": 10, "concurrency": 4}, "sources": [
          {"id": "notes", "provider": "files", "options": {"paths": ["data/*.ndjson"]}},
          {"id": "tasks", "provider": "files", "options": {"paths": ["data/tasks.csv"]}},
          {"id": "broken", "provider": "files", "options": {"paths": ["data/missing.csv"]}},
          {"id": "secret", "provider": "files", "enabled": false, "options": {"paths": ["${DATA_DIR}/x.csv"]}}
        ]}
        """
    static let files = [
        "data/a.ndjson": #"{"id": "n1", "title": "First", "date": "2026-11-20T08:00:00Z"}"# + "\n"
            + #"{"id": "n2", "title": "Second"}"# + "\n",
        "data/tasks.csv": "id,title,owner\nt1,\"Write, then test\",ana\nt2,Ship,bo\n",
    ]

    @Test("JSON output follows the contract: sources in manifest order, items in source order, exit 1 on a failure")
    func jsonContract() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let result = try await Aggregate.run(["--format", "json", "--manifest", sandbox.manifestPath])
        #expect(result.status == 1)
        let json = try result.json()
        #expect(json["generatedAt"] is String)
        let sources = try result.sources()
        #expect(sources.map { $0["id"] as? String } == ["notes", "tasks", "broken", "secret"])
        #expect(sources.map { $0["status"] as? String } == ["ok", "ok", "error", "skipped"])
        #expect(sources[0]["itemCount"] as? Int == 2)
        #expect(sources[0]["durationMs"] is Int)
        let error = try #require(sources[2]["error"] as? [String: Any])
        #expect(error["kind"] as? String == "notFound")
        #expect((error["message"] as? String)?.contains("missing.csv") == true)
        let items = try result.items()
        #expect(items.map { $0["id"] as? String } == ["n1", "n2", "t1", "t2"])
        #expect(items.map { $0["source"] as? String } == ["notes", "notes", "tasks", "tasks"])
        #expect(items[0]["kind"] as? String == "record")
        #expect(items[0]["date"] as? String == "2026-11-20T08:00:00Z")
        #expect(items[2]["title"] as? String == "Write, then test")
        #expect(items[1]["subtitle"] is NSNull)
        #expect(result.stderr.contains("broken"))
    }

    @Test("only the named sources run, in manifest order, and a clean run exits 0")
    func selection() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let result = try await Aggregate.run(["--sources", "tasks,notes", "--format", "json", "--manifest", sandbox.manifestPath])
        #expect(result.status == 0)
        #expect(try result.sources().map { $0["id"] as? String } == ["notes", "tasks"])
    }

    @Test("NDJSON prints one parsable item per line and nothing else on stdout")
    func ndjson() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let result = try await Aggregate.run(["--sources", "notes,tasks", "-f", "ndjson", "--limit", "1", "--manifest", sandbox.manifestPath])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(result.stderr.contains("aggregate: notes: 1 of 2 items printed (--limit)"), "--limit says what it left out: \(result.stderr)")
        #expect(result.stderr.contains("aggregate: tasks: 1 of 2 items printed (--limit)"))
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["source"] is String)
        }
    }

    @Test("--limit over many sources: the first three named, the rest counted in one line; --verbose names each")
    func limitOverManySources() async throws {
        let ids = (1...7).map { "s\($0)" }
        let manifest = #"{"version": 1, "sources": ["#
            + ids.map { #"{"id": "\#($0)", "provider": "files", "options": {"paths": ["data/a.ndjson"]}}"# }.joined(separator: ",")
            + "]}"
        let sandbox = try Sandbox(manifest: manifest, files: Self.files)
        let result = try await Aggregate.run(["-f", "ndjson", "--limit", "1", "--manifest", sandbox.manifestPath])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 7)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == ["aggregate: s1: 1 of 2 items printed (--limit)", "aggregate: s2: 1 of 2 items printed (--limit)",
                          "aggregate: s3: 1 of 2 items printed (--limit)",
                          "aggregate: and 4 more sources: 4 of 8 items printed (--limit; --verbose names each)"], "\(lines)")
        let verbose = try await Aggregate.run(["-f", "ndjson", "--limit", "1", "-v", "--manifest", sandbox.manifestPath])
        #expect(ids.allSatisfy { id in verbose.stderr.contains("aggregate: \(id): 1 of 2 items printed (--limit)") }, "\(verbose.stderr)")
    }

    @Test("every format renders the same run without failing", arguments: ["table", "json", "ndjson", "csv", "markdown"])
    func formats(format: String) async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let result = try await Aggregate.run(["--sources", "notes,tasks", "--format", format, "--manifest", sandbox.manifestPath])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Second"))
        #expect(!result.stdout.contains("\u{1B}["), "no escape codes when stdout is not a terminal")
        #expect(!result.stderr.contains("\u{1B}["), "no live progress when stderr is not a terminal")
    }

    @Test("--sources runs the named source whatever another's options are; validate and a run of all still refuse them")
    func selectionChecksOnlyItsSources() async throws {
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "sources": [
              {"id": "tasks", "provider": "files", "options": {"paths": ["data/tasks.csv"]}},
              {"id": "typo", "provider": "files", "options": {"pathz": ["data/tasks.csv"]}}
            ]}
            """, files: Self.files)
        let selected = try await Aggregate.run(["--sources", "tasks", "-f", "json", "--manifest", sandbox.manifestPath])
        #expect(selected.status == 0)
        #expect(try selected.sources().map { $0["id"] as? String } == ["tasks"])
        for arguments in [["validate"], ["run"], ["run", "--sources", "tasks,typo"]] {
            let refused = try await Aggregate.run(arguments + ["--manifest", sandbox.manifestPath])
            #expect(refused.status == 78, "\(arguments)")
            #expect(refused.stderr.contains("sources[1].options.pathz"), "\(arguments)")
        }
    }

    @Test("unknown --sources names exit 64 and list the known ids, in the same words for run, watch and serve",
          arguments: [["run"], ["watch"], ["serve", "--listen", "127.0.0.1:0"]])
    func unknownSource(command: [String]) async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let result = try await Aggregate.run(command + ["--sources", "note", "--manifest", sandbox.manifestPath])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown source 'note' (did you mean 'notes'?)"))
        #expect(result.stderr.contains("notes, tasks, broken, secret"))
        #expect(result.stdout.isEmpty)
    }

    @Test("a named source whose variable is missing is an error naming the variable")
    func missingVariable() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let result = try await Aggregate.run(
            ["--sources", "secret", "-f", "json", "--manifest", sandbox.manifestPath], removing: ["DATA_DIR"])
        #expect(result.status == 1)
        let source = try #require(try result.sources().first)
        #expect(source["status"] as? String == "error")
        #expect((source["error"] as? [String: Any])?["message"] as? String
            == "needs environment variable $DATA_DIR, which is not set")
    }

    @Test("the manifest comes from AGGREGATE_MANIFEST and its paths resolve against its own directory")
    func manifestFromEnvironment() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let result = try await Aggregate.run(
            ["--sources", "tasks", "-f", "json"], in: FileManager.default.temporaryDirectory,
            environment: ["AGGREGATE_MANIFEST": sandbox.manifestPath])
        #expect(result.status == 0)
        #expect(try result.items().count == 2)
    }

    @Test("bad arguments exit 64 with usage", arguments: [["--limit", "0"], ["--format", "xml"], ["--deadline", "-1"], ["--bogus"]])
    func badArguments(arguments: [String]) async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let result = try await Aggregate.run(arguments + ["--manifest", sandbox.manifestPath])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Usage") || result.stderr.contains("Error"))
    }

    @Test("--sort date puts each source's newest items first; the default keeps the source's order")
    func sortByDate() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: [
            "data/a.ndjson": #"{"id": "old", "date": "2026-01-01T00:00:00Z"}"# + "\n" + #"{"id": "undated"}"# + "\n"
                + #"{"id": "new", "date": "2026-11-01T00:00:00Z"}"# + "\n",
        ])
        let sorted = try await Aggregate.run(["--sources", "notes", "-f", "json", "--sort", "date", "--manifest", sandbox.manifestPath])
        #expect(try sorted.items().map { $0["id"] as? String } == ["new", "old", "undated"])
        let unsorted = try await Aggregate.run(["--sources", "notes", "-f", "json", "--manifest", sandbox.manifestPath])
        #expect(try unsorted.items().map { $0["id"] as? String } == ["old", "undated", "new"])
    }
}
