import Domain
import Foundation
import Testing
@testable import FeedParsing

/// A date the parser cannot read is kept as written (`publishedRaw`, `updatedRaw`), so nothing is lost.
@Suite("Dates that cannot be read are kept as written")
struct FeedRawDateTests {
    static func entries(_ xml: String) throws -> [FeedEntry] {
        try FeedParser.parse(Data(xml.utf8)).entries
    }

    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Mixed dates</title>
        <item><title>Portuguese</title><guid>1</guid><pubDate>Seg, 24 Set 2018 19:42:40 -0300</pubDate></item>
        <item><title>Unreadable</title><guid>2</guid><pubDate>quarta-feira passada, à tarde</pubDate></item>
        <item><title>Unreadable pubDate, readable dc:date</title><guid>3</guid>
          <pubDate>sometime in spring</pubDate><dc:date>2018-09-24T22:42:40Z</dc:date></item>
        <item><title>Two unreadable</title><guid>4</guid><dc:date>soon</dc:date><pubDate>later</pubDate></item>
        <item><title>No date</title><guid>5</guid></item>
        </channel></rss>
        """

    @Test("an unreadable pubDate leaves the entry undated and keeps the text in publishedRaw")
    func rssRaw() throws {
        let entries = try Self.entries(Self.rss)
        #expect(entries.map(\.published) == [
            Date(iso: "2018-09-24T22:42:40Z"), nil, Date(iso: "2018-09-24T22:42:40Z"), nil, nil,
        ])
        #expect(entries.map(\.publishedRaw) == [nil, "quarta-feira passada, à tarde", nil, "later", nil])
    }

    @Test("the raw text reaches the item's fields only when the date is missing")
    func itemFields() throws {
        let feed = try FeedParser.parse(Data(Self.rss.utf8))
        let items = feed.entries.map { $0.toItem(in: feed) }
        #expect(items.map { $0.fields["publishedRaw"] } == [nil, "quarta-feira passada, à tarde", nil, "later", nil])
        #expect(items[0].fields["published"] == "2018-09-24T22:42:40Z")
        #expect(items[1].fields["published"] == nil)
        #expect(items[1].date == nil)
        #expect(items.allSatisfy { $0.fields["updatedRaw"] == nil })
    }

    @Test("Atom: an unreadable updated is kept in updatedRaw, a readable published still dates the entry")
    func atomRaw() throws {
        let entries = try Self.entries("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
            <entry><id>a</id><title>one</title><published>2019-02-05T09:00:00Z</published><updated>n/a</updated></entry>
            <entry><id>b</id><title>two</title><updated>mar., 5 févr. 2019 10:00:00 +0100</updated></entry>
            </feed>
            """)
        #expect(entries.map(\.updatedRaw) == ["n/a", nil])
        #expect(entries.map(\.publishedRaw) == [nil, nil])
        #expect(entries[1].updated == Date(iso: "2019-02-05T09:00:00Z"))
        let item = entries[0].toItem(in: Feed(entries: entries))
        #expect(item.date == Date(iso: "2019-02-05T09:00:00Z"))
        #expect(item.fields["updatedRaw"] == "n/a")
    }
}
