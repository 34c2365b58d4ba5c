import Domain
import FeedParsing
import Foundation
import Presentation
import ProviderTesting
import Testing

/// `-f atom`, `-f rss` and `-f jsonfeed`: valid for real readers (python feedparser with no bozo flag, the JSON
/// Feed 1.1 schema), and a round trip through our own feed parser gives every item's title, link, date and id
/// back.
@Suite("Feed output: Atom, RSS and JSON Feed")
struct FeedRendererTests {
    static let xmlFormats: [OutputFormat] = [.atom, .rss]

    static func render(_ format: OutputFormat, _ report: AggregateReport = FeedSamples.report,
                       options: RenderOptions = RenderOptions()) -> String {
        Renderers.renderer(for: format).string(for: report, options: options)
    }

    @Test("python feedparser reads every item with no bozo flag", arguments: xmlFormats)
    func feedparserReadsEveryItem(_ format: OutputFormat) async throws {
        let reading = try await FeedCheck.feedparser(Self.render(format))
        #expect(!reading.bozo, "bozo: \(reading.error)")
        #expect(reading.version == (format == .atom ? "atom10" : "rss20"))
        let expected = FeedSamples.expected
        try #require(reading.entries.count == expected.count)
        for (entry, (source, item)) in zip(reading.entries, expected) {
            #expect(entry.id == FeedSamples.entryID(source, item))
            #expect(entry.title == FeedSamples.xmlTitle(item.title))
            // feedparser offers an Atom entry's id as its link when it has none.
            #expect(entry.link == item.url?.absoluteString || (item.url == nil && entry.link == entry.id))
            #expect(entry.published == item.date?.timeIntervalSince1970)
        }
    }

    @Test("our own parser gives back every item's id, title, link and date", arguments: xmlFormats)
    func roundTrip(_ format: OutputFormat) throws {
        let feed = try FeedParser.parse(Data(Self.render(format).utf8))
        #expect(feed.warnings.isEmpty)
        let expected = FeedSamples.expected
        try #require(feed.entries.count == expected.count)
        for (entry, (source, item)) in zip(feed.entries, expected) {
            #expect(entry.id == FeedSamples.entryID(source, item))
            #expect(entry.title == FeedSamples.xmlTitle(item.title))
            #expect(entry.link == item.url)
            #expect(entry.published == item.date)
        }
    }

    @Test("JSON Feed validates against the JSON Feed 1.1 schema and carries every item")
    func jsonFeedValidates() async throws {
        let text = Self.render(.jsonfeed)
        #expect(try await FeedCheck.validateJSONFeed(text) == [])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let items = try #require(document["items"] as? [[String: Any]])
        let expected = FeedSamples.expected
        try #require(items.count == expected.count)
        for (object, (source, item)) in zip(items, expected) {
            #expect(object["id"] as? String == FeedSamples.entryID(source, item))
            #expect(object["title"] as? String == item.title)
            #expect(object["url"] as? String == item.url?.absoluteString)
            #expect(object["date_published"] as? String == item.date.map(ISO8601.string(from:)))
            let extensionObject = try #require(object["_aggregate"] as? [String: String])
            #expect(extensionObject == ["source": source, "kind": item.kind.rawValue, "id": item.id])
        }
    }

    @Test("the schema is strict enough to catch a broken feed")
    func schemaRejectsBrokenFeeds() async throws {
        let broken = #"{"version": "https://jsonfeed.org/version/1.1", "title": "x", "items": [{"id": "1", "date_published": "Tue, 24 Nov 2026", "titel": "typo"}]}"#
        let errors = try await FeedCheck.validateJSONFeed(broken)
        #expect(errors.count >= 3, "no content, a bad date and an unknown key: \(errors)")
    }

    @Test("a reader polling the feed sees each item once: ids and dates do not change between runs",
          arguments: OutputFormat.allCases.filter(\.isFeed))
    func stableAcrossRuns(_ format: OutputFormat) {
        var later = FeedSamples.report
        later.generatedAt = later.generatedAt.addingTimeInterval(3600)
        #expect(Self.render(format, later) == Self.render(format))
    }

    @Test("a failed source and a skipped one add no entries and keep the feed valid")
    func failedSourcesAreLeftOut() async throws {
        let failures = AggregateReport(
            generatedAt: FeedSamples.report.generatedAt, sources: Array(FeedSamples.report.sources.suffix(2)))
        for format in Self.xmlFormats {
            let reading = try await FeedCheck.feedparser(Self.render(format, failures))
            #expect(!reading.bozo, "\(format): \(reading.error)")
            #expect(reading.entries.isEmpty)
        }
        #expect(try await FeedCheck.validateJSONFeed(Self.render(.jsonfeed, failures)) == [])
    }

    @Test("--feed-title and --feed-link reach every format; the channel link has a default")
    func metadata() throws {
        let options = RenderOptions(feed: FeedMetadata(title: "Team <news>", link: URL(string: "https://example.com/n")))
        #expect(Self.render(.atom, options: options).contains("<title>Team &lt;news&gt;</title>"))
        #expect(Self.render(.atom, options: options).contains(#"<link rel="alternate" href="https://example.com/n"/>"#))
        #expect(Self.render(.rss, options: options).contains("<link>https://example.com/n</link>"))
        #expect(Self.render(.jsonfeed, options: options).contains(#""home_page_url": "https://example.com/n""#))
        #expect(Self.render(.rss).contains("<link>https://news.example.org/</link>"))
        #expect(Self.render(.atom).contains("<title>aggregate: news, notes, weather, issues, odd, broken</title>"))
    }

    @Test("--limit applies per source, as for the other formats", arguments: OutputFormat.allCases.filter(\.isFeed))
    func limit(_ format: OutputFormat) throws {
        let text = Self.render(format, options: RenderOptions(limit: 1))
        let notes = FeedSamples.report.sources[1].items
        #expect(text.contains(FeedSamples.entryID("notes", notes[0])))
        #expect(!text.contains(FeedSamples.entryID("notes", notes[1])))
    }

    @Test("items without HTML carry their text: an issue's labels, the weather's condition")
    func plainTextBodies() throws {
        let atom = Self.render(.atom)
        #expect(atom.contains("Labels: [bug, p1]"))
        #expect(atom.contains("Condition: broken clouds"))
        let rss = Self.render(.rss)
        #expect(rss.contains("&lt;p&gt;It is &lt;b&gt;out&lt;/b&gt; &amp;amp; stable.&lt;/p&gt;"))
    }
}
