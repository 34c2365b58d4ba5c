import Foundation
import ProviderTesting
import Testing

@Suite("aggregate --format ndjson streams (end to end)")
struct StreamingOutputTests {
    static let manifest = """
        {"version": 1, "defaults": {"timeoutSeconds": 600, "concurrency": 4}, "sources": [
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
        "data/big-1.ndjson": lines(3_000, prefix: "a"),
        "data/big-2.ndjson": lines(2_000, prefix: "b"),
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
        // 5,002 items parsed twice and compared: on a thread of their own, not the shared pool.
        let (itemCount, differing) = try await blocking { [json] in
            let items = try json.items()
            let differing = try zip(lines, items).first { line, item in
                let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return parsed.map { !NSDictionary(dictionary: $0).isEqual(to: item) } ?? true
            }?.0
            return (items.count, differing.map(String.init))
        }
        #expect(lines.count == 5_002)
        #expect(itemCount == 5_002)
        #expect(differing == nil, "this line differs from its JSON item: \(differing ?? "")")
        #expect(lines.first?.hasPrefix(#"{"source":"big","kind":"record","id":"a0","#) == true)
        #expect(lines[3_000].contains(#""id":"b0""#))
        #expect(lines.last?.contains(#""id":"t2""#) == true)
        #expect(ndjson.stderr.contains("big: ok, 5000 items"))
    }

    @Test("--new while streaming prints only lines the source never delivered before")
    func newOnly() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest, files: Self.files)
        let home = Aggregate.temporaryHome().path
        let arguments = ["--sources", "big", "--format", "ndjson", "--new", "--manifest", sandbox.manifestPath]
        let first = try await Aggregate.run(arguments, environment: ["AGGREGATE_HOME": home])
        #expect(first.stdout.split(separator: "\n").count == 5_000)
        #expect(first.stderr.contains("first run with --new: all 5000 items are new"))

        let appended = Self.lines(2_000, prefix: "b") + Self.lines(3, prefix: "b", from: 2_000)
        try Data(appended.utf8).write(to: sandbox.root.appendingPathComponent("data/big-2.ndjson"))
        let second = try await Aggregate.run(arguments, environment: ["AGGREGATE_HOME": home])
        #expect(second.status == 0)
        let ids = second.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids == ["b2000", "b2001", "b2002"])
    }

    @Test("each streamed source's reported count is the lines it printed, with a filter and a cap dropping items")
    func countsAreLinesPrinted() async throws {
        let entries = ["one", "two", "three", "four"].map {
            "<item><title>\($0)</title><guid>\($0)</guid><link>https://example.com/\($0)</link></item>"
        }
        let manifest = """
            {"version": 1, "defaults": {"timeoutSeconds": 600}, "sources": [
              {"id": "big", "provider": "files", "options": {"paths": ["data/big-*.ndjson"]}, "filter": {"exclude": {"title": "7 "}}},
              {"id": "news", "provider": "feed", "options": {"paths": ["data/feed.xml"], "maxItemsPerFeed": 2},
               "filter": {"exclude": {"title": "^(one|four)$"}}},
              {"id": "tasks", "provider": "files", "options": {"paths": ["data/tasks.csv"]}}
            ]}
            """
        var files = Self.files
        files["data/feed.xml"] = #"<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>\#(entries.joined())</channel></rss>"#
        let sandbox = try Sandbox(manifest: manifest, files: files)
        let run = try await Aggregate.run(["--format", "ndjson", "--verbose", "--manifest", sandbox.manifestPath])
        #expect(run.status == 0, "\(run.stderr)")
        var printed: [String: Int] = [:]
        for line in run.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            printed[object?["source"] as? String ?? "?", default: 0] += 1
        }
        // "two" alone: "one" dropped by the filter, "three" and "four" past the cap (one of them also filtered).
        #expect(printed == ["big": 4_500, "news": 1, "tasks": 2])
        #expect(run.stderr.contains("big: ok, 4500 items, 500 filtered out,"), "\(run.stderr)")
        #expect(run.stderr.contains("news: ok, 1 item, 2 filtered out,"), "\(run.stderr)")
        #expect(run.stderr.contains("tasks: ok, 2 items,"), "\(run.stderr)")
    }

    /// 20,000 items of ~250 bytes from two fast C programs: what fills the pipes is quick to make.
    static let pacedProgram = #"seq 20000 | sed 's/.*/{"type":"item","id":"&","title":"\#(String(repeating: "t", count: 200))"}/'"#

    @Test("a reader slower than the sources (| less) times none of them out: the run waits for it, and nothing is lost",
          arguments: [
            (#"{"id": "paced", "provider": "files", "options": {"paths": ["data/big-*.ndjson"]}}"#, 5_000),
            (#"{"id": "paced", "provider": "exec", "options": {"command": ["/bin/sh", "-c", \#(JSONString(pacedProgram))]}}"#, 20_000),
          ])
    func slowReader(_ source: String, count: Int) async throws {
        // The reader's pause is the subject: longer than the timeout, with every buffer full. The timeout leaves the
        // source's own work (reading and parsing a few MB in a debug build beside the whole suite) ample room.
        let sandbox = try Sandbox(manifest: #"{"version": 1, "defaults": {"timeoutSeconds": 15}, "sources": [\#(source)]}"#, files: Self.files)
        let (lines, status, stderr) = try await blocking {
            let (process, output, errors) = try Self.startNDJSON(sandbox, keepingStandardError: true)
            var data = output.readData(ofLength: 64)
            Thread.sleep(forTimeInterval: 20)  // the delay is the subject: a reader slower than the binary's timeout
            data += output.readDataToEndOfFile()
            let stderr = errors?.readDataToEndOfFile() ?? Data()
            process.waitUntilExit()
            return (data.split(separator: UInt8(ascii: "\n")).count, process.terminationStatus, String(decoding: stderr, as: UTF8.self))
        }
        #expect(status == 0, "\(stderr)")
        #expect(lines == count)
        #expect(!stderr.contains("timeout"), "\(stderr)")
    }

    @Test("a slow source's lines appear as they come, and when the reader goes away (| head) the run ends by SIGPIPE")
    func slowSourceAndClosedPipe() async throws {
        // One item every 0.2 s until nobody reads them: the run cannot end by itself before the test closes the
        // pipe, however late the test gets to it (a bounded loop let a stalled test see the whole run exit 0); the
        // long timeout is only reached if lines are held back.
        let script = #"i=0; while echo "{\"type\":\"item\",\"id\":\"$i\",\"title\":\"t\"}"; do i=$((i+1)); sleep 0.2; done"#  // paced: the sleep is the ticker's pace (above)
        let manifest = """
            {"version": 1, "defaults": {"timeoutSeconds": 600}, "sources": [
              {"id": "ticker", "provider": "exec", "options": {"command": ["/bin/sh", "-c", \(JSONString(script))]}}
            ]}
            """
        let sandbox = try Sandbox(manifest: manifest)
        let (firstBytes, reason, status) = try await blocking {
            let (process, output, _) = try Self.startNDJSON(sandbox, keepingStandardError: false)
            let firstBytes = output.readData(ofLength: 48)
            try output.close()  // like `head -c 48`
            process.waitUntilExit()
            return (firstBytes, process.terminationReason, process.terminationStatus)
        }
        #expect(String(decoding: firstBytes, as: UTF8.self).hasPrefix(#"{"source":"ticker","kind":"record","id":"0""#))
        // Output held back to the end, or a closed pipe ignored, would both end the run normally (exit 0).
        #expect(reason == .uncaughtSignal)
        #expect(status == SIGPIPE)
    }

    /// `aggregate --format ndjson` over `sandbox`'s manifest with a home of its own, started; the test reads its
    /// stdout at its own pace (and its stderr, if kept).
    private static func startNDJSON(
        _ sandbox: Sandbox, keepingStandardError: Bool
    ) throws -> (process: Process, output: FileHandle, errors: FileHandle?) {
        let process = Process()
        process.executableURL = Aggregate.binary
        process.arguments = ["--format", "ndjson", "--manifest", sandbox.manifestPath]
        process.environment = ["AGGREGATE_HOME": Aggregate.temporaryHome().path, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = keepingStandardError ? errors : FileHandle.nullDevice
        try process.run()
        return (process, output.fileHandleForReading, keepingStandardError ? errors.fileHandleForReading : nil)
    }
}

/// `text` as a JSON string literal.
private func JSONString(_ text: String) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
}
