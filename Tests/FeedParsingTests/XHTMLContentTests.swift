import Domain
import Foundation
import Testing
@testable import FeedParsing

/// Atom `type="xhtml"` content and markup inside HTML fields, which the parser takes apart and the builder
/// writes back: text nodes escaped (straight from the parser's bytes), attributes by name, void elements
/// without an end tag, and the wrapping `<div>` left out.
@Suite("XHTML content written back as HTML")
struct XHTMLContentTests {
    static func entry(content: String) throws -> FeedEntry {
        let document = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>urn:feed</id>
            <entry><title>e</title><id>urn:e</id>\(content)</entry></feed>
            """
        return try #require(try FeedParser.parse(Data(document.utf8)).entries.first)
    }

    @Test("text nodes come back escaped, punctuation and non-ASCII intact, between the elements around them")
    func escapedText() throws {
        let entry = try Self.entry(content: """
            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">\
            <p>Tom &amp; Jerry &lt;3 — “quotes” &gt; <b>bold</b> 'single' "double"</p>\
            </div></content>
            """)
        #expect(entry.content == #"<p>Tom &amp; Jerry &lt;3 — “quotes” &gt; <b>bold</b> 'single' "double"</p>"#)
    }

    @Test("attributes are written by name with quotes escaped; void elements get no end tag")
    func attributesAndVoidElements() throws {
        let entry = try Self.entry(content: """
            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">\
            <a title="a &quot;b&quot; &amp; c" href="https://example.org/?a=1&amp;b=2">x</a><br/>\
            <img src="https://example.org/i.png" alt="&lt;i&gt;"/><hr/><brr>y</brr><source src="s"/>\
            </div></content>
            """)
        #expect(entry.content == """
            <a href="https://example.org/?a=1&amp;b=2" title="a &quot;b&quot; &amp; c">x</a><br>\
            <img alt="&lt;i&gt;" src="https://example.org/i.png"><hr><brr>y</brr><source src="s">
            """)
    }

    @Test("text in markup that arrives in several pieces (a long node, character references) is whole")
    func textInPieces() throws {
        let long = String(repeating: "lorem ipsum & dolor ", count: 2_000)
        let escapedLong = long.replacingOccurrences(of: "&", with: "&amp;")
        let entry = try Self.entry(content: """
            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">\
            <p>\(escapedLong)&#169; &#x263A;</p></div></content>
            """)
        #expect(entry.content == "<p>\(escapedLong)© ☺</p>")
    }
}
