import Foundation
import ProviderTesting
import Testing

/// Schemathesis (PyPI) fuzzes every operation of docs/openapi.json against a real `serve` (in process, on
/// loopback): examples, coverage, fuzzing and stateful phases, a fixed seed, a bounded number of cases per
/// operation. It fails on any 5xx, any response the document does not describe (status, content type, headers,
/// body schema), and any input the document rules out that the server accepts. CI (`CI=true`) installs it
/// (.ci/run) and the test never skips there.
@Suite("serve: every /api route fuzzed against its OpenAPI document")
struct SchemathesisTests {
    static let executable: URL? = (["/usr/local/bin", "/usr/bin"] + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map(String.init))
        .map { URL(fileURLWithPath: $0).appendingPathComponent("st") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    static var mustRun: Bool { ProcessInfo.processInfo.environment["CI"] == "true" || executable != nil }

    /// Sources of each outcome, so every shape of the document appears: items of several kinds, a source that
    /// fails (its file is missing) with its error.
    static let manifest = """
        {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
          {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}},
          {"id": "more", "provider": "files", "options": {"paths": ["data/more.ndjson"]}},
          {"id": "gone", "provider": "files", "options": {"paths": ["data/gone.ndjson"]}}
        ]}
        """

    @Test("no 5xx, every response as documented, bad input refused with a 4xx JSON error",
          .enabled(if: mustRun, "needs schemathesis (pip install schemathesis; CI installs it: .ci/run)"))
    func fuzz() async throws {
        let st = try #require(Self.executable, "CI=true: schemathesis must be installed (.ci/run)")
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: [
            "data/notes.ndjson": ndjson((1...30).map { ("n\($0)", "Note \($0) é ✓", "2026-11-\(String(format: "%02d", $0 % 28 + 1))T10:00:00Z") }),
            "data/more.ndjson": ndjson([("m1", "More", nil)]),
        ])
        try await harness.ready()
        let document = OpenAPIDocumentTests.repository.appendingPathComponent("docs/openapi.json")
        let work = try ScratchDirectory.make("schemathesis")
        // A 414 (a target over 4 KiB) is a refusal too: Schemathesis's list of them lacks it.
        try Data("""
            [checks.negative_data_rejection]
            expected-statuses = [400, 401, 403, 404, 405, 414, 422]
            """.utf8).write(to: work.appendingPathComponent("schemathesis.toml"))
        let result = try await ProcessRunner.run(st, [
            "--config-file", work.appendingPathComponent("schemathesis.toml").path, "run", document.path, "--url", harness.base, "--seed", "51", "--max-examples", "25",
            "--phases", "examples,coverage,fuzzing,stateful", "--checks", "all",
            // Which sources a server watches and which cursors it gave are its state, which no document can list:
            // a well-formed `source` or `cursor` it does not know is rightly a 400, not an acceptance.
            "--exclude-checks", "positive_data_acceptance",
            "--workers", "1", "--generation-database", "none", "--request-timeout", "120",
            "--suppress-health-check", "too_slow", "--no-color", "--report", "junit",
            "--report-dir", work.path,
        ], in: work, environment: ProcessInfo.processInfo.environment.merging(["HOME": work.path]) { _, new in new })
        try await harness.stop()
        #expect(result.status == 0, "schemathesis:\n\(result.stdout.suffix(20_000))\n\(result.stderr.suffix(4_000))")
        // It tested every operation of the document, not none (its JUnit report has a test case for each).
        let reports = try FileManager.default.contentsOfDirectory(at: work, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "xml" }
        let junit = try reports.map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        for operation in ["GET /api/report", "GET /api/items", "GET /api/sources", "POST /api/sources/{id}/refresh",
                          "GET /api/openapi.json"] {
            #expect(junit.contains(operation), "\(operation) was not tested: \(junit.prefix(2000))")
        }
    }
}
