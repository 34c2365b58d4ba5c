import Foundation
import ProviderTesting
import Testing

/// Exec sinks and the manifest's `sinks` checks, through the built binary.
@Suite("aggregate: exec sinks and sink validation (end to end)")
struct ExecSinkEndToEndTests {
    /// Appends its delivery id and stdin to `received`; fails while the file `fail` exists.
    static let script = """
        #!/bin/sh
        [ -e fail ] && { echo "receiver down" >&2; exit 3; }
        echo "delivery $AGGREGATE_DELIVERY_ID" >> received
        cat >> received
        """

    @Test("an exec sink gets each new item once as NDJSON on stdin; a non-zero exit keeps the batch for the next run")
    func execSink() async throws {
        let sandbox = try SinkSandbox.make(
            sinks: #"{"id": "notify", "type": "exec", "command": ["./notify.sh"], "maxRetries": 0}"#, news: ["a", "b"])
        let script = sandbox.root.appendingPathComponent("notify.sh")
        try Data(Self.script.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let failFlag = sandbox.root.appendingPathComponent("fail")
        try Data().write(to: failFlag)
        let home = Aggregate.temporaryHome()
        let environment = ["AGGREGATE_HOME": home.path]

        let failed = try await Aggregate.run(["-f", "json", "--manifest", sandbox.manifestPath], environment: environment)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("exited with status 3"), "stderr: \(failed.stderr)")
        try FileManager.default.removeItem(at: failFlag)
        let delivered = try await Aggregate.run(["-f", "json", "--manifest", sandbox.manifestPath], environment: environment)
        #expect(delivered.status == 0, "stderr: \(delivered.stderr)")
        _ = try await Aggregate.run(["-f", "json", "--manifest", sandbox.manifestPath], environment: environment)

        let received = try String(contentsOf: sandbox.root.appendingPathComponent("received"), encoding: .utf8)
        let lines = received.split(separator: "\n")
        #expect(lines.count == 3, "one delivery line and two items: \(received)")
        #expect(lines.first?.hasPrefix("delivery ") == true)
        let ids = lines.dropFirst().compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids == ["a", "b"])
    }

    @Test("sinks are validated like sources: JSON paths, did-you-mean, known sources, no secret over plain http")
    func validation() async throws {
        let sandbox = try SinkSandbox.make(
            sinks: """
                {"id": "hook", "type": "webhok", "url": "https://h.example.com"},
                {"id": "hook2", "type": "webhook", "url": "http://hooks.example.com/x", "secret": "abc",
                 "sources": ["nwes"], "batchSize": 5},
                {"id": "run", "type": "exec"}
                """,
            news: ["a"])
        let result = try await Aggregate.run(["validate", "--manifest", sandbox.manifestPath])
        #expect(result.status == 78)
        for expected in [
            "sinks[0].type: unknown sink type 'webhok' (did you mean 'webhook'?)",
            "sinks[1].sources[0]: unknown source 'nwes' (did you mean 'news'?)",
            "sinks[1].batchSize: unknown key (did you mean 'batch'?)",
            "sinks[1].url: refusing to send a credential over plain http://",
            "sinks[2].command: required for an exec sink",
        ] {
            #expect(result.stderr.contains(expected), "missing '\(expected)' in: \(result.stderr)")
        }
        #expect(!result.stderr.contains("abc"), "the secret is never shown")
    }
}
