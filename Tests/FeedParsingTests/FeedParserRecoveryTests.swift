import Domain
import Foundation
import ProviderTesting
import Testing
@testable import FeedParsing

@Suite("Broken feeds: what is recovered and what is an error")
struct FeedParserRecoveryTests {
    static func channelTitle(_ xml: String) throws -> String? {
        try FeedParser.parse(Data("<rss><channel><title>\(xml)</title></channel></rss>".utf8)).title
    }

    @Test("HTML named entities XML does not define are read as their characters")
    func htmlEntities() throws {
        #expect(try FeedParser.parse(contentsOf: Fixture.url("feedparser/entities__aacute.xml")).title == "testing á entity")
        #expect(try Self.channelTitle("caf&eacute; &nbsp;&mdash; &Ouml;l") == "café \u{A0}— Öl")
    }

    @Test("numeric references, including windows-1252 code points")
    func numericReferences() throws {
        #expect(try FeedParser.parse(contentsOf: Fixture.url("feedparser/entities__8217.xml")).title == "testing ’ entity")
        #expect(try Self.channelTitle("a &#150; b &#x201C;c&#x201D;") == "a – b “c”")
    }

    @Test("bare ampersands and unknown entities are kept as text", arguments: [
        ("Tom & Jerry", "Tom & Jerry"),
        ("?a=1&b=2", "?a=1&b=2"),
        ("&unknown; &", "&unknown; &"),
        ("&#;&#x;", "&#;&#x;"),
    ])
    func bareAmpersands(input: String, expected: String) throws {
        #expect(try Self.channelTitle(input) == expected)
    }

    @Test("a bare ampersand in an attribute value keeps the attribute")
    func ampersandInAttribute() throws {
        let xml = #"<rss><channel><item><enclosure url="http://x.test/a?b=1&c=2" type="audio/mpeg"/></item></channel></rss>"#
        #expect(try FeedParser.parse(Data(xml.utf8)).entries.first?.enclosureURL == URL(string: "http://x.test/a?b=1&c=2"))
    }

    @Test("a stray < in text, control characters and CDATA")
    func strayCharacters() throws {
        #expect(try Self.channelTitle("1 < 2") == "1 < 2")
        #expect(try Self.channelTitle("bell\u{07}form\u{0C}feed") == "bellformfeed")
        #expect(try Self.channelTitle("<![CDATA[a & <b>]]> tail") == "a & <b> tail")
        #expect(try Self.channelTitle("x ]]&gt; &lt;y&gt;") == "x ]]> <y>")
    }

    @Test("illegally nested elements: both entries are recovered")
    func badNesting() throws {
        let xml = "<rss><channel><item><title>one<b>bold</title></item><item><title>two</title></item></channel></rss>"
        let feed = try FeedParser.parse(Data(xml.utf8))
        #expect(feed.entries.count == 2)
        #expect(feed.entries.last?.title == "two")
        // Recovery is never silent: the source is told what libxml2 read past, and where.
        #expect(feed.warnings.contains { $0.hasPrefix("recovered from") && $0.contains("line 1, column") }, "\(feed.warnings)")
    }

    @Test("every fixture feed is read without a warning (nothing recovered, nothing skipped)",
          arguments: LeadingJunkTests.fixtures)
    func wellFormedFixturesHaveNoWarning(fixture: String) throws {
        #expect(try FeedParser.parse(Fixture.data(fixture)).warnings == [])
    }

    @Test("an undeclared namespace prefix is no recovery: the element is read by its prefix, and nothing is said")
    func undeclaredPrefix() throws {
        let xml = "<rss><channel><item><title>t</title><dc:creator>Ann</dc:creator></item></channel></rss>"
        let feed = try FeedParser.parse(Data(xml.utf8))
        #expect(feed.entries.first?.author == "Ann")
        #expect(feed.warnings == [])
    }

    @Test("a truncated feed keeps the entries before the cut and says where it ends (issue 22: not an error)")
    func truncated() throws {
        let xml = "<rss version=\"2.0\">\n<channel>\n<item><title>one</title></item>\n<item><title>tw"
        let feed = try FeedParser.parse(Data(xml.utf8))
        #expect(feed.entries.map(\.title) == ["one"])
        let warning = try #require(feed.warnings.first)
        #expect(warning.contains("ends too early"))
        #expect(warning.contains("line 4, column"))
    }

    @Test("a feed cut off before its first entry ended is a parse error with the line and column")
    func truncatedBeforeAnyEntry() throws {
        let xml = "<rss version=\"2.0\">\n<channel>\n<item><title>tw"
        let error = try #require(throws: SourceError.self) { try FeedParser.parse(Data(xml.utf8)) }
        #expect(error.kind == .parse)
        #expect(error.message.contains("line 3, column"))
    }

    @Test("cut inside a CDATA section: the entries before it are kept, and the source is told", arguments: [
        "<rss version=\"2.0\"><channel><item><title>one</title></item><item><title>two</title><description><![CDATA[half",
        "<rss version=\"2.0\"><channel><item><title>one</title></item><item><description><![CDATA[",
    ])
    func truncatedInCDATA(xml: String) throws {
        let feed = try FeedParser.parse(Data(xml.utf8))
        #expect(feed.entries.map(\.title) == ["one"])
        #expect(feed.warnings.contains { $0.hasPrefix("truncated:") && $0.contains("line 1, column") })
    }

    @Test("a document that is not a feed names its root element", arguments: [
        ("<html><body>hi</body></html>", "root element <html>"),
        ("<?xml version=\"1.0\"?><opml version=\"2.0\"/>", "root element <opml>"),
    ])
    func notAFeed(xml: String, expected: String) throws {
        let error = try #require(throws: SourceError.self) { try FeedParser.parse(Data(xml.utf8)) }
        #expect(error.kind == .parse)
        #expect(error.message == "not an RSS, Atom or RDF feed (\(expected))")
    }

    @Test("text that is not XML at all is a parse error at line 1")
    func notXML() throws {
        let error = try #require(throws: SourceError.self) { try FeedParser.parse(Data("just some words".utf8)) }
        #expect(error.kind == .parse)
        #expect(error.message.contains("line 1"))
    }

    @Test("an unparseable date leaves the date empty and keeps the entry")
    func unparseableDate() throws {
        let xml = "<rss><channel><item><title>t</title><pubDate>sometime soon</pubDate></item></channel></rss>"
        let feed = try FeedParser.parse(Data(xml.utf8))
        #expect(feed.entries.count == 1)
        #expect(feed.entries[0].published == nil)
    }

    @Test("a document over libxml2's 10 MB single-buffer limit parses from memory")
    func largeDocument() async throws {
        let description = String(repeating: "lorem ipsum dolor sit amet ", count: 230)
        var xml = "<rss version=\"2.0\"><channel><title>big</title>"
        for index in 0..<2_000 { xml += "<item><guid>\(index)</guid><description>\(description)</description></item>" }
        xml += "</channel></rss>"
        let data = Data(xml.utf8)
        #expect(data.count > 12_000_000)
        let feed = try await blocking { try FeedParser.parse(data) }
        #expect(feed.entries.count == 2_000)
        #expect(feed.entries.last?.id == "1999")
    }

    @Test("a missing file is notFound, a directory is an io error")
    func fileErrors() throws {
        #expect(throws: SourceError(.notFound, "no such file")) {
            try FeedParser.parse(contentsOf: URL(fileURLWithPath: "/nonexistent/feed.rss"))
        }
        let error = try #require(throws: SourceError.self) {
            try FeedParser.parse(contentsOf: FileManager.default.temporaryDirectory)
        }
        #expect(error.kind == .io)
    }
}
