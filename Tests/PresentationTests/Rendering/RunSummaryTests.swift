import Domain
import Foundation
@testable import Presentation
import Testing

/// The top of a large run's report: counts per status and the sources with a problem, before the thousand rest.
@Suite("Run summary")
struct RunSummaryTests {
    /// `count` feed sources, ok with one item each, except every 100th (error), the 250th (timeout) and the
    /// 500th (skipped for a missing variable, a problem) and the 999th (disabled: no problem).
    static func large(count: Int = 1000) -> AggregateReport {
        let sources = (0..<count).map { index -> SourceReport in
            let descriptor = SourceDescriptor(id: "feed\(index)", provider: "feed", timeoutSeconds: 10, concurrency: 1)
            if index == 250 {
                return SourceReport(descriptor: descriptor, status: .timeout, error: SourceError(.timeout, "no answer within 10 s"))
            }
            if index == 500 {
                let error = SourceError(.configuration, "needs environment variable $TOKEN, which is not set")
                return SourceReport(descriptor: descriptor, status: .skipped, error: error)
            }
            if index == 999 { return SourceReport(descriptor: descriptor, status: .skipped, message: "disabled in the manifest") }
            if index % 100 == 7 {
                return SourceReport(descriptor: descriptor, status: .error, error: SourceError(.network, "connection refused"))
            }
            return SourceReport(descriptor: descriptor, status: .ok, items: [Item(kind: .entry, id: "\(index)", title: "Entry \(index)")])
        }
        return AggregateReport(generatedAt: ISO8601.date(from: "2026-11-25T10:00:00Z")!, sources: sources)
    }

    @Test("JSON: the summary counts every status and names the problem sources in manifest order")
    func json() throws {
        let text = JSONRenderer().render(Self.large())
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let summary = try #require(root["summary"] as? [String: Any])
        #expect(summary["total"] as? Int == 1000)
        #expect(summary["ok"] as? Int == 987)
        #expect(summary["error"] as? Int == 10)
        #expect(summary["timeout"] as? Int == 1)
        #expect(summary["skipped"] as? Int == 2)
        #expect(summary["stale"] as? Int == 0)
        let problems = try #require(summary["problems"] as? [String])
        let errors = (0..<10).map { "feed\($0 * 100 + 7)" }
        #expect(problems == Array(errors[0..<3]) + ["feed250"] + Array(errors[3..<5]) + ["feed500"] + Array(errors[5...]))
        // The summary comes before the sources, so a reader (or `head`) meets it first.
        let summaryAt = try #require(text.range(of: "\"summary\""))
        let sourcesAt = try #require(text.range(of: "\"sources\""))
        #expect(summaryAt.lowerBound < sourcesAt.lowerBound)
    }

    @Test("table: a large run starts with its counts and one line per problem source, at most 20")
    func table() {
        var report = Self.large()
        // 30 problems: 20 are listed, the rest announced.
        for index in 0..<18 {
            report.sources[index * 10 + 1].status = .error
            report.sources[index * 10 + 1].error = SourceError(.parse, "not a feed")
        }
        let lines = TableRenderer().render(report, RenderOptions()).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "1000 sources: 969 ok · 28 error · 1 timeout · 2 skipped")
        #expect(lines[1] == "  ✖ feed1 error · parse: not a feed")
        #expect(lines[2] == "  ✖ feed7 error · network: connection refused")
        #expect(lines[21] == "  … 10 more with a problem, below")
        #expect(lines[22] == "")
        #expect(lines[23] == "● feed0 (feed) ok · 1 item")
        #expect(lines[1...20].allSatisfy { $0.hasPrefix("  ✖ ") || $0.hasPrefix("  ◷ ") || $0.hasPrefix("  ○ ") })
    }

    @Test("table: a run of fewer than 10 sources has no summary (every status line is in sight)")
    func smallTable() {
        let report = AggregateReport(generatedAt: Date(), sources: Array(Self.large(count: 9).sources))
        let first = TableRenderer().render(report, RenderOptions()).split(separator: "\n").first
        #expect(first == "● feed0 (feed) ok · 1 item")
    }
}
