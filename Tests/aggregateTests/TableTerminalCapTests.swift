import Foundation
import ProviderTesting
import Testing

/// The table's cap on a terminal, through a real pseudo-terminal: util-linux `script` gives the binary's stdout
/// a tty, as a person's shell does.
@Suite("aggregate -f table: a huge source is cut on a terminal, never when redirected (end to end)")
struct TableTerminalCapTests {
    static let rows = 1_005

    private func sandbox() throws -> Sandbox {
        let lines = (1...Self.rows).map { #"{"id": "r\#($0)", "title": "row \#($0)"}"# }.joined(separator: "\n")
        return try Sandbox(
            manifest: #"{"version": 1, "sources": [{"id": "big", "provider": "files", "options": {"paths": ["data/big.ndjson"]}}]}"#,
            files: ["data/big.ndjson": lines + "\n"])
    }

    @Test("redirected: every row, no cut line")
    func redirected() async throws {
        let sandbox = try sandbox()
        let result = try await Aggregate.run(["-f", "table", "--quiet", "--manifest", sandbox.manifestPath])
        #expect(result.status == 0)
        #expect(result.stdout.contains("row \(Self.rows)"))
        #expect(!result.stdout.contains("more rows"))
    }

    @Test("on a terminal: the first 1,000 rows, then how many more and where to get them")
    func terminal() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "util-linux's script is missing")
            print("skipped: /usr/bin/script (util-linux) is not installed")
            return
        }
        let sandbox = try sandbox()
        let command = "\(Aggregate.binary.path) -f table --quiet --manifest \(sandbox.manifestPath)"
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/script"), ["-q", "-e", "-c", command, "/dev/null"], in: nil,
            environment: ProcessInfo.processInfo.environment.merging(
                ["NO_COLOR": "1", "AGGREGATE_HOME": Aggregate.temporaryHome().path]) { _, new in new },
            whileRunning: { _ in })
        #expect(result.status == 0)
        #expect(result.stdout.contains("row 1000"))
        #expect(!result.stdout.contains("row 1001"))
        #expect(result.stdout.contains("… 5 more rows (use -f ndjson)"))
    }
}
