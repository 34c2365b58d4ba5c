import Domain
import Foundation
import Testing
@testable import FeedParsing

/// The gofeed suite's inputs against gofeed's expected parse (the `.json` beside each `.xml`), for the
/// fields our `Feed` models: feed title, entry title, link, description/summary, content, pubDate.
@Suite("gofeed expected parses")
struct GofeedExpectedParseTests {
    static let cases = [
        "rss_channel_item_pubDate", "rss_channel_item_xml_base", "rdf_item_description_cdata_escaped_markup",
        "issue_320_legacy_entity_prefix", "rss_channel_item_content_encoded", "feed_title_xml_base_cdata",
        "entry_content_xml_base_inherit_2",
    ]

    @Test("each input parses as gofeed expects", arguments: cases)
    func matchesExpectedParse(name: String) throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("gofeed/\(name).xml"))
        let expected = try #require(
            try JSONSerialization.jsonObject(with: Fixture.data("gofeed/\(name).json")) as? [String: Any])
        var checked = 0
        if let title = expected["title"] as? String {
            #expect(feed.title == title)
            checked += 1
        }
        let items = (expected["items"] ?? expected["entries"]) as? [[String: Any]] ?? []
        #expect(feed.entries.count == items.count)
        for (entry, item) in zip(feed.entries, items) {
            if let title = item["title"] as? String { #expect(entry.title == title); checked += 1 }
            if let link = item["link"] as? String { #expect(entry.link?.absoluteString == link); checked += 1 }
            if let description = item["description"] as? String { #expect(entry.summary == description); checked += 1 }
            if let content = item["content"] as? String { #expect(entry.content == content); checked += 1 }
            if let content = (item["content"] as? [String: Any])?["value"] as? String {
                #expect(entry.content == content)
                checked += 1
            }
            if let date = item["pubDateParsed"] as? String { #expect(entry.published == Date(iso: date)); checked += 1 }
        }
        #expect(checked > 0, "nothing of \(name).json was compared")
    }

    @Test("a byte-order mark, leading whitespace and an RDF channel without items", arguments: [
        "rss_feed_bom", "rss_feed_leading_spaces", "rdf_feed",
    ])
    func feedTitleOnly(name: String) throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("gofeed/\(name).xml"))
        #expect(feed.title == "Feed Title")
        #expect(feed.entries.isEmpty)
    }

    @Test("an empty file is a parse error, not an empty feed")
    func emptyFile() {
        #expect(throws: SourceError(.parse, "the document is empty")) {
            try FeedParser.parse(contentsOf: Fixture.url("gofeed/empty_feed.xml"))
        }
    }
}
