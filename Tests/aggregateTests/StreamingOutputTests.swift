import Foundation
import Testing

@Suite("aggregate --format ndjson streams (end to end)")
struct StreamingOutputTests {
    static let manifest = """
        {"version": 1, "defaults": {"timeoutSeconds": 60, "concurrency": 4}, "sources": [
          {"id": "big", "provider": "files", "options": {"paths": ["data/big-*.ndjson"]}},
          {"id": "tasks", "provider": "files", "options": {"paths": ["data/tasks.csv"]}}
        ]}
        """

    /// `count` issue-like lines with ids `prefix0`, `prefix1`, …
    static func lines(_ count: Int, prefix: String, from start: Int = 0) -> String {
        (start..<start + count).map { index in
            #"{"id": "\#(prefix)\#(index)", "title": "Issue \#(index) \"quoted\" ✓", "labels": ["bug"], "n": \#(index)}"# + "\n"
        }.joined()
    }

    static let files = [
        "data/big-1.ndjson": lines(12_000, prefix: "a"),
        "data/big-2.ndjson": lines(8_000, prefix: "b"),
        "data/tasks.csv": "id,title\nt1,Write\nt2,Ship\n",
    ]

    @Test("a large run's NDJSON lines are the JSON document's items, in the same order, each line compact")
    func sameItemsAsJSON() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let ndjson = try await Aggregate.run(["--format", "ndjson", "--verbose", "--manifest", sandbox.manifestPath])
        let json = try await Aggregate.run(["--format", "json", "--manifest", sandbox.manifestPath])
        #expect(ndjson.status == 0)
        #expect(json.status == 0)
        let lines = ndjson.stdout.split(separator: "\n")
        let items = try json.items()
        #expect(lines.count == 20_002)
        #expect(items.count == 20_002)
        for (line, item) in zip(lines, items) {
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard NSDictionary(dictionary: parsed).isEqual(to: item) else {
                Issue.record("line differs from the JSON item: \(line)")
                return
            }
        }
        #expect(lines.first?.hasPrefix(#"{"source":"big","kind":"record","id":"a0","#) == true)
        #expect(lines[12_000].contains(#""id":"b0""#))
        #expect(lines.last?.contains(#""id":"t2""#) == true)
        #expect(ndjson.stderr.contains("big: ok, 20000 items"))
    }

    @Test("--new while streaming prints only lines the source never delivered before")
    func newOnly() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let home = Aggregate.temporaryHome().path
        let arguments = ["--sources", "big", "--format", "ndjson", "--new", "--manifest", sandbox.manifestPath]
        let first = try await Aggregate.run(arguments, environment: ["AGGREGATE_HOME": home])
        #expect(first.stdout.split(separator: "\n").count == 20_000)
        #expect(first.stderr.contains("first run with --new: all 20000 items are new"))

        let appended = Self.lines(8_000, prefix: "b") + Self.lines(3, prefix: "b", from: 8_000)
        try Data(appended.utf8).write(to: sandbox.root.appendingPathComponent("data/big-2.ndjson"))
        let second = try await Aggregate.run(arguments, environment: ["AGGREGATE_HOME": home])
        #expect(second.status == 0)
        let ids = second.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids == ["b8000", "b8001", "b8002"])
    }
}
