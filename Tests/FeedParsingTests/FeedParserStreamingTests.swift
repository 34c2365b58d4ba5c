import Domain
import Foundation
import Testing
@testable import FeedParsing

@Suite("Streaming entries")
struct FeedParserStreamingTests {
    @Test("streamed entries are the collected entries, in the same order, and none are kept")
    func sameAsCollected() throws {
        let url = Fixture.url("rss2_guardian_us_2018.rss")
        var streamed: [FeedEntry] = []
        let feed = try FeedParser.parse(contentsOf: url) { (entry) throws(SourceError) in streamed.append(entry) }
        let collected = try FeedParser.parse(contentsOf: url)
        #expect(streamed == collected.entries)
        #expect(feed.entries.isEmpty)
        #expect(feed.title == "The Guardian")
    }

    @Test("an error thrown by the consumer stops the parse and comes back unchanged")
    func consumerError() throws {
        var seen = 0
        let stop = SourceError(.io, "disk full")
        #expect(throws: stop) {
            try FeedParser.parse(contentsOf: Fixture.url("rss2_guardian_us_2018.rss")) { (_) throws(SourceError) in
                seen += 1
                if seen == 3 { throw stop }
            }
        }
        #expect(seen == 3)
    }

    @Test("streamed Atom entries inherit the feed's author")
    func atomAuthor() throws {
        var authors: [String?] = []
        _ = try FeedParser.parse(contentsOf: Fixture.url("atom10_intertwingly_relative_icon.atom"), maxEntries: 2) {
            (entry) throws(SourceError) in authors.append(entry.author)
        }
        #expect(authors == ["Sam Ruby", "Sam Ruby"])
    }
}
