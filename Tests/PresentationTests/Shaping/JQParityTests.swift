import Domain
import Foundation
import Presentation
import Synchronization
import ProviderTesting
import Testing

/// `--jq` against the `jq` program on the same input: what we print must be byte for byte what `jq -r`
/// prints (`jq -rc` over NDJSON lines). Needs `jq` and libjq (`.ci/run` installs both).
@Suite("--jq: parity with the jq program")
struct JQParityTests {
    /// A report with what jq's output could differ on: non-ASCII, quotes and newlines, doubles, nulls, nesting.
    static let report: AggregateReport = {
        var report = SampleReports.golden
        report.sources[0].items.append(Item(
            kind: .entry, id: "3", title: "Ünïcödé \t tab", subtitle: "sub", url: URL(string: "https://example.org/x?utm_source=a"),
            date: SampleReports.date("2026-11-22T07:30:00Z"),
            fields: ["count": 10, "ratio": 0.1, "big": 1e21, "negative": -2.5, "flag": true, "none": nil,
                     "list": [1, "two", ["three": 3]]]))
        return report
    }()

    static let reportExpressions = [
        ".", ".items[].title", ".sources | map({id, status})", ".items[] | select(.fields.count > 3) | .id",
        "[.items[] | .fields.count] | add", ".items | group_by(.source) | map({source: .[0].source, n: length})",
        #".items[] | "\(.source): \(.title) (\(.date // "undated"))""#,
        ".items[] | [.source, .id, .title, .fields.ratio, .url] | @csv", ".items[] | [.id, .title] | @tsv",
        ".items | map(.title | ascii_downcase) | sort", "{n: (.items | length), first: .items[0].fields}",
        ".items[0].fields.ratio * 3", "[paths(type == \"number\")]", ".items[2].fields | to_entries",
        ".items[] | @json", ".items[] | .title | @base64", "[limit(2; .items[])] | length", "empty",
        ".items | map(.date | select(. != null) | fromdateiso8601) | max", "[.. | numbers]", ".sources[] | .error?.kind",
        ".items[] | .title | error", #".items[1].title.foo"#, #".items[] | (.id | tonumber) as $n | if $n > 1 then error({n: $n}) else $n end"#,
    ]

    static let itemExpressions = [
        ".", ".title", #"select(.source == "notes") | .id"#, "[.source, .id, .title] | @csv", #""\(.id)\t\(.date)""#,
        ".fields | keys", ".fields.count // 0", "if .id == \"2\" then error(\"bad item \\(.id)\") else .id end",
        ".title | test(\"milk\")", ".fields.list[]?",
    ]

    @Test("-f json: the report through the filter prints what jq -r prints", arguments: reportExpressions)
    func report(_ expression: String) async throws {
        let json = JSONRenderer().string(for: Self.report)
        let expected = try await JQProgram.run(["-r", expression], input: json)
        let filter = try JQFilter(expression, compact: false)
        let ours = filter.run(Array(json.utf8))
        #expect(String(decoding: ours.text, as: UTF8.self) == expected.stdout)
        #expect((ours.failure?.exitStatus ?? 0) == expected.status)
        if let failure = ours.failure {
            #expect(JQProgram.message(of: expected.stderr) == JQProgram.message(of: failure.line(at: "x")))
        }
    }

    @Test("-f ndjson: each item through the filter prints what jq -rc prints over the lines", arguments: itemExpressions)
    func items(_ expression: String) async throws {
        let lines = NDJSONRenderer().string(for: Self.report)
        let expected = try await JQProgram.run(["-rc", expression], input: lines)
        let filter = try JQFilter(expression, compact: true)
        let collected = Collected()
        let writer = NDJSONStreamWriter(limit: nil, jq: filter, onFailure: { failure, _ in collected.add(failure.line(at: "x")) }) {
            collected.add(String(decoding: $0, as: UTF8.self), toStdout: true)
        }
        writer.write(Self.report.itemsInOutputOrder())
        writer.flush()
        #expect(collected.stdout == expected.stdout)
        #expect(JQProgram.messages(of: collected.stderr) == JQProgram.messages(of: expected.stderr))
        // jq 1.6 exits with the status of the last input only (1.7 exits 5 if any failed, as we do: see the
        // end-to-end test); what it printed is what matters here.
    }

    @Test("a syntax error gives jq's own messages", arguments: [".items[", "map(", ".a | | .b", "foo(1)", "{a:}"])
    func syntaxError(_ expression: String) async throws {
        let expected = try await JQProgram.run([expression], input: "{}")
        #expect(expected.status == 3)
        let error = #expect(throws: JQFilter.CompileError.self) { try JQFilter(expression, compact: false) }
        #expect(error?.messages == expected.stderr)
    }

    @Test("halt_error stops with its message and exit code, as jq does")
    func haltError() async throws {
        let expression = #".items[0].id, ("stopped\n" | halt_error(3)), .items[1].id"#
        let json = JSONRenderer().string(for: Self.report)
        let expected = try await JQProgram.run(["-r", expression], input: json)
        let ours = try JQFilter(expression, compact: false).run(Array(json.utf8))
        #expect(String(decoding: ours.text, as: UTF8.self) == expected.stdout)
        #expect(ours.failure?.exitStatus == expected.status)
        #expect(ours.failure?.line(at: "x") == expected.stderr)
    }

    @Test("many filters, many runs, errors among them: no crash, each result as the first")
    func repeatedUse() throws {
        let json = Array(JSONRenderer().string(for: Self.report).utf8)
        let first = try JQFilter(".items | map(.title) | join(\",\")", compact: true).run(json)
        for round in 0..<200 {
            let filter = try JQFilter(round % 2 == 0 ? ".items | map(.title) | join(\",\")" : "error(\"x\")", compact: true)
            for _ in 0..<5 {
                let result = filter.run(json)
                if round % 2 == 0 { #expect(result == first) } else { #expect(result.failure?.message == "x") }
            }
        }
    }

    @Test("filters run from several threads at once give the same results")
    func concurrentUse() async throws {
        let json = Array(JSONRenderer().string(for: Self.report).utf8)
        let expected = try JQFilter("[.items[].id] | join(\"-\")", compact: true).run(json)
        let results = await withTaskGroup(of: [JQFilter.Output].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    await onOwnThread {
                        guard let filter = try? JQFilter("[.items[].id] | join(\"-\")", compact: true) else { return [] }
                        return (0..<100).map { _ in filter.run(json) }
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(results.count == 400)
        #expect(results.allSatisfy { $0 == expected })
    }
}

/// What the writer printed, gathered from its callbacks.
private final class Collected: Sendable {
    private let state = Mutex<(stdout: String, stderr: String)>(("", ""))
    func add(_ text: String, toStdout: Bool = false) {
        state.withLock { if toStdout { $0.stdout += text } else { $0.stderr += text } }
    }
    var stdout: String { state.withLock { $0.stdout } }
    var stderr: String { state.withLock { $0.stderr } }
}
