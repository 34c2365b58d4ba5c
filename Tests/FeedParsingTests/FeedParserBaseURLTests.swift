import Domain
import Foundation
import Testing
@testable import FeedParsing

@Suite("Relative links and xml:base")
struct FeedParserBaseURLTests {
    @Test("an empty xml:base on the feed is the feed's own URL: relative entry links resolve against it")
    func emptyBaseOverHTTP() throws {
        let feedURL = try #require(URL(string: "http://talkingpointsmemo.com/feed/all"))
        let feed = try FeedParser.parse(Fixture.data("atom10_tpm_empty_xml_base.atom"), baseURL: feedURL)
        #expect(feed.entries.count == 20)
        #expect(feed.entries[0].link?.absoluteString
            == "http://talkingpointsmemo.com/livewire/hannity-announces-fox-hired-sebastian-gorka-national-security-strategist")
    }

    @Test("a local copy resolves relative links against the URL the feed states for itself, not the file path")
    func localCopyUsesStatedURL() throws {
        let tpm = try FeedParser.parse(contentsOf: Fixture.url("atom10_tpm_empty_xml_base.atom"))
        #expect(tpm.entries[0].link?.absoluteString.hasPrefix("http://talkingpointsmemo.com/livewire/") == true)

        // rel="self" is http://intertwingly.net/blog/index.atom; the site link is the relative "/blog/".
        let ruby = try FeedParser.parse(contentsOf: Fixture.url("atom10_intertwingly_relative_icon.atom"))
        #expect(ruby.link == URL(string: "http://intertwingly.net/blog/"))
        #expect(ruby.entries[0].link == URL(string: "http://intertwingly.net/blog/2012/07/16/Inhibiting-Suspend"))
    }

    @Test("xml:base on one item applies to that item only, including links inside its HTML")
    func itemScopedBase() throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("rss2_item_scoped_xml_base_cdata.xml"))
        #expect(feed.entries.count == 2)
        #expect(feed.entries[0].link == URL(string: "https://example.com/first/first"))
        #expect(feed.entries[0].summary == #"<p><a href="https://example.com/first/post">First</a></p>"#)
        #expect(feed.entries[1].link == URL(string: "https://example.com/second"))
        #expect(feed.entries[1].summary == #"<p><a href="post">Second</a></p>"#)
    }

    @Test("an element's own xml:base overrides its parent's (Atom 0.3, xhtml content)")
    func elementBaseOverridesParent() throws {
        let feed = try FeedParser.parse(
            contentsOf: Fixture.url("feedparser/wellformed__base__entry_content_xml_base_inherit_2.xml"))
        #expect(feed.entries.first?.content == #"Example <a href="http://example.com/test/test.html">test</a>"#)
    }

    @Test("an IRI as xml:base resolves an empty href to itself")
    func iriBase() throws {
        let feed = try FeedParser.parse(contentsOf: Fixture.url("feedparser/wellformed__base__feed_link_xml_base_iri.xml"))
        let link = try #require(feed.link)
        #expect(link.host == "www.xn--8ws00zhy3a.com")  // www.詹姆斯.com, IDNA-encoded
        #expect(link.path == "/feed")
    }

    @Test("with no base at all, relative links of a body without a URL stay relative")
    func noBase() throws {
        let feed = try FeedParser.parse(Data(#"<rss><channel><item><link>post/1</link></item></channel></rss>"#.utf8))
        #expect(feed.entries.first?.link?.relativeString == "post/1")
    }
}
