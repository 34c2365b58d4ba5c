import Domain
import Foundation
import Testing
@testable import FeedParsing

@Suite("Formats and fields of real feeds")
struct FeedParserFormatTests {
    @Test("the format comes from the root element, whatever the file is called", arguments: [
        ("rss2_guardian_us_2018.rss", FeedFormat.rss),
        ("rss092_iso-8859-1_example.rss", .rss),
        ("rss2_spec_sample_liftoff_news.xml", .rss),
        ("atom10_heise_developer.atom", .atom),
        ("rss1_rdf_sciencemag.rdf", .rdf),
        ("gofeed/rdf_feed.xml", .rdf),
        ("feedparser/wellformed__base__entry_content_xml_base_inherit_2.xml", .atom),  // Atom 0.3
    ])
    func formatFromRoot(file: String, format: FeedFormat) throws {
        #expect(try FeedParser.parseDetailed(contentsOf: Fixture.url(file)).format == format)
    }

    @Test("an Atom document named .rss is read as Atom")
    func atomUnderRSSName() throws {
        let url = try Fixture.write(Fixture.data("atom10_heise_developer.atom"), name: "news.rss")
        let parsed = try FeedParser.parseDetailed(contentsOf: url)
        #expect(parsed.format == .atom)
        #expect(parsed.feed.entries.count == 15)
    }

    @Test("RSS 2.0 with CDATA: every entry with its fields, in document order")
    func rss2CDATA() throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("rss2_wapo_wellness_EST_tzname_cdata.xml"))
        #expect(feed.title == "Wellness: Health, Fitness, Nutrition & More - The Washington Post")
        #expect(feed.entries.count == 29)
        let first = try #require(feed.entries.first)
        #expect(first.title == "Schools minister to kids’ fitness and nutrition needs")
        #expect(first.author == "Lenny Bernstein")
        #expect(first.categories == ["YMCA", "high school"])
        #expect(first.summary?.hasPrefix("<p>You’ve just been appointed Minister of Fitness") == true)
        // "Tue, 21 Aug 2012 10:33:00 EST": the zone as written (EST, -05:00), even in August.
        #expect(first.published == Date(iso: "2012-08-21T15:33:00Z"))
        #expect(feed.entries.allSatisfy { $0.published != nil })
    }

    @Test("a large real RSS 2.0 feed keeps its 55 entries, guids as ids and dc:creator as author")
    func guardian() throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("rss2_guardian_us_2018.rss"))
        #expect(feed.title == "The Guardian")
        #expect(feed.link == URL(string: "https://www.theguardian.com/us"))
        #expect(feed.entries.count == 55)
        let first = try #require(feed.entries.first)
        #expect(first.id == "https://www.theguardian.com/us-news/2018/jan/31/donald-trump-state-of-the-union-address-unity-discord")
        #expect(first.author == "David Smith in Washington")
        #expect(first.categories.first == "Donald Trump")
        #expect(first.published == Date(iso: "2018-01-31T07:26:05Z"))
        #expect(Set(feed.entries.map(\.id)).count == 55)
    }

    @Test("the RSS 2.0 spec sample: an item without a title keeps its link and guid")
    func specSample() throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("rss2_spec_sample_liftoff_news.xml"))
        #expect(feed.entries.count == 4)
        #expect(feed.entries[0].author == "writer@example.com (Writer)")
        let untitled = feed.entries[1]
        #expect(untitled.title == nil)
        #expect(untitled.id == "http://liftoff.msfc.nasa.gov/2003/05/30.html#item572")
        // A permalink guid stands in for the missing <link>.
        #expect(untitled.link == URL(string: "http://liftoff.msfc.nasa.gov/2003/05/30.html#item572"))
        #expect(untitled.published == Date(iso: "2003-05-30T11:06:42Z"))
    }

    @Test("RSS 0.92: enclosures and categories")
    func rss092() throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("rss092_iso-8859-1_example.rss"))
        #expect(feed.title == "RSS0.92 Example")
        #expect(feed.entries.map(\.title) == ["The First Item", "The Second Item"])
        #expect(feed.entries[0].enclosureURL == URL(string: "http://www.oreilly.com/001.mp3"))
        #expect(feed.entries[0].categories == ["Business/Industries/Publishing/Publishers/Nonfiction/"])
    }

    @Test("Atom 1.0: ids, alternate links, content and summary, published and updated with offsets")
    func atom() throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("atom10_heise_developer.atom"))
        #expect(feed.title == "heise developer neueste Meldungen")
        #expect(feed.entries.count == 15)
        let first = try #require(feed.entries.first)
        #expect(first.id == "http://heise.de/-3088438")
        #expect(first.title == "Java-Anwendungsserver: Red Hat gibt WildFly 10 frei")
        #expect(first.link?.absoluteString.hasPrefix("http://www.heise.de/developer/meldung/Java-Anwendungsserver") == true)
        #expect(first.author == "heise online")
        #expect(first.summary?.hasPrefix("Die nun verfügbare Version 10") == true)
        #expect(first.content?.contains("<a href=") == true)
        #expect(first.published == Date(iso: "2016-02-01T16:22:00Z"))  // 17:22:00+01:00
        #expect(first.updated == Date(iso: "2016-02-01T16:54:50Z"))
    }

    @Test("RSS 1.0 (RDF): rdf:about ids, dc:creator, dc:subject and dc:date")
    func rdf() throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("rss1_rdf_sciencemag.rdf"))
        #expect(feed.title == "Science twis")
        #expect(feed.entries.count == 69)
        let first = try #require(feed.entries.first)
        #expect(first.id == "http://science.sciencemag.org/cgi/content/short/356/6343/1134-a?rss=1")
        #expect(first.title == "Food for fungi")
        #expect(first.author == "Hines, P. J.")
        #expect(first.categories == ["Botany, Microbiology"])
        #expect(first.published == Date(iso: "2017-06-15T17:29:47Z"))
    }

    @Test("entries without dates, titles or links are kept with a stable id; one with nothing at all is no entry")
    func missingFields() throws {
        let onlyID = try FeedParser.parse(contentsOf: Fixture.url("atom10_missing_fields_no_dates.atom"))
        #expect(onlyID.entries.count == 1)
        #expect(onlyID.entries[0].id == "tag:github.com,2008:Repository/11167738/v3.9.0")
        #expect(onlyID.entries[0].published == nil && onlyID.entries[0].title == nil)

        // An entry with only an empty author has nothing to show or tell it apart by (issue 22: other parsers
        // drop such elements): left out and counted, no longer a blank "(untitled)" item.
        let emptyAuthor = try FeedParser.parse(contentsOf: Fixture.url("atom10_incomplete_fields_empty_author.atom"))
        #expect(emptyAuthor.entries.isEmpty)
        #expect(emptyAuthor.droppedEntries == 1)

        // An untitled entry with a date still is one, with a stable id made from what it has.
        let dated = Data(#"<rss version="2.0"><channel><item><pubDate>Sun, 06 Jul 2014 12:56:00 GMT</pubDate></item></channel></rss>"#.utf8)
        let first = try FeedParser.parse(dated), again = try FeedParser.parse(dated)
        #expect(first.entries.count == 1)
        #expect(first.entries[0].id.hasPrefix("hash:"))
        #expect(again.entries[0].id == first.entries[0].id)
    }

    @Test("RSS with Atom paging links: the item's enclosure and the channel's site link")
    func paginationLinks() throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("rss2_pagination_atom_links.rss"))
        #expect(feed.link == URL(string: "https://example.test/shows/new-show-1"))
        #expect(feed.entries.count == 1)
        #expect(feed.entries[0].enclosureURL == URL(string: "https://example.test/test-audio.mp3"))
        #expect(feed.entries[0].id == "a6f22abe-be5c-4a37-8f4b-8be3d69b0235")
    }

    @Test("feedparser's pubDate cases: the date is parsed and kept as published", arguments: [
        "feedparser/wellformed__rss__item_pubDate.xml", "feedparser/wellformed__rss__item_pubDate_map_updated_parsed.xml",
    ])
    func feedparserPubDate(file: String) throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url(file))
        #expect(feed.entries.first?.published == Date(iso: "2004-01-01T19:48:21Z"))
        #expect(feed.entries.first?.updated == nil)
    }

    @Test("maxEntries stops the parse early and keeps the first entries")
    func maxEntries() throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("rss2_guardian_us_2018.rss"), maxEntries: 3)
        let all = try FeedParser.parse(contentsOf: Fixture.url("rss2_guardian_us_2018.rss"))
        #expect(feed.entries == Array(all.entries.prefix(3)))
        #expect(feed.title == "The Guardian")
    }

    @Test("a body in memory parses like the same file")
    func dataMatchesFile() throws {
        let fromFile = try FeedParser.parse(contentsOf: Fixture.url("atom10_heise_developer.atom"))
        let fromData = try FeedParser.parse(Fixture.data("atom10_heise_developer.atom"))
        #expect(fromFile == fromData)
    }
}
