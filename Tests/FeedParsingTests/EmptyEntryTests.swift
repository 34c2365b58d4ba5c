import Foundation
import Testing
@testable import FeedParsing

@Suite("Elements that look like entries but are none")
struct EmptyEntryTests {
    @Test("an empty <item/> nested in an item is no entry, and the item around it keeps everything it has")
    func nestedEmptyItem() throws {
        let feed = try FeedParser.parse(Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
            <item><title>First</title><item/><link>https://example.org/1</link><pubDate>Sun, 06 Jul 2014 12:56:00 GMT</pubDate></item>
            <item><title>Second</title><guid>b</guid><item></item><description>kept</description></item>
            </channel></rss>
            """.utf8))
        #expect(feed.entries.map(\.title) == ["First", "Second"])
        #expect(feed.entries[0].link?.absoluteString == "https://example.org/1")
        #expect(feed.entries[0].published != nil, "read after the nested item")
        #expect(feed.entries[1].summary == "kept")
        #expect(feed.droppedEntries == 2)
    }

    @Test("an item with content inside an item means the outer one lost its end tag: both are entries, in order")
    func nestedItemWithContent() throws {
        let feed = try FeedParser.parse(Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
            <item><title>Outer</title><guid>o</guid><item><title>Inner</title><guid>i</guid></item></item>
            </channel></rss>
            """.utf8))
        #expect(feed.entries.map(\.title) == ["Outer", "Inner"])
        #expect(feed.droppedEntries == 0)
    }

    @Test("an entry with no title, link, id, summary, content or date is left out and counted", arguments: [
        "<item/>", "<item></item>", "<item><category>x</category></item>",
    ])
    func emptyEntry(item: String) throws {
        let feed = try FeedParser.parse(Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
            \(item)<item><title>Real</title></item>
            </channel></rss>
            """.utf8))
        #expect(feed.entries.map(\.title) == ["Real"])
        #expect(feed.droppedEntries == 1)
    }

    @Test("an untitled entry with a link or a date is still an entry")
    func untitledButReal() throws {
        let feed = try FeedParser.parse(Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
            <item><link>https://example.org/a</link></item><item><pubDate>Sun, 06 Jul 2014 12:56:00 GMT</pubDate></item>
            </channel></rss>
            """.utf8))
        #expect(feed.entries.count == 2)
        #expect(feed.droppedEntries == 0)
    }
}
