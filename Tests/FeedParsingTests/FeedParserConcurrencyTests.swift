import Domain
import Foundation
import Testing
@testable import FeedParsing

/// libxml2's errors go to each parse's own handler (no global state): parses on several threads at once
/// each hear their own errors, at their own positions, and nothing else.
@Suite("Parsing on several threads at once")
struct FeedParserConcurrencyTests {
    /// A nesting error on line `line` (the documents differ only in how many lines come before it).
    static func broken(line: Int) -> Data {
        let padding = String(repeating: "\n", count: line - 1)
        return Data("<rss><channel>\(padding)<item><title>one<b>bold</title></item><item><title>two</title></item></channel></rss>".utf8)
    }

    @Test("each parse reports its own recovered error and line, whatever runs beside it")
    func ownErrors() async throws {
        let fixture = try Fixture.data("rss2_guardian_us_2018.rss")
        let expected = try FeedParser.parse(fixture).entries.map(\.id)
        let outcomes = await withTaskGroup(of: (Int, [String], Bool).self) { group in
            for task in 1...8 {
                group.addTask {
                    var warnings: [String] = []
                    var cleanMatches = true
                    for _ in 0..<10 {
                        warnings += (try? FeedParser.parse(Self.broken(line: task)).warnings) ?? ["failed"]
                        let clean = try? FeedParser.parse(fixture)
                        cleanMatches = cleanMatches && clean?.entries.map(\.id) == expected && clean?.warnings == []
                    }
                    return (task, warnings, cleanMatches)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 8)
        for (line, warnings, cleanMatches) in outcomes {
            // Each parse: what libxml2 recovered from, and the elements it then left open (both at this task's line).
            #expect(warnings.filter { $0.hasPrefix("recovered from") }.count == 10, "task \(line): \(warnings)")
            #expect(warnings.allSatisfy { $0.contains("at line \(line),") }, "task \(line): \(warnings)")
            #expect(cleanMatches, "task \(line): a well-formed feed heard another parse's errors")
        }
    }
}
