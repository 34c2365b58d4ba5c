import Domain
import Foundation
import Testing
@testable import FeedParsing

@Suite("Hostile documents")
struct FeedParserSecurityTests {
    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
         <!ENTITY lol "lol">
         <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
         <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
         <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
         <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
         <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
         <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
         <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
         <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
         <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <rss version="2.0"><channel><title>&lol9;</title><item><title>x</title></item></channel></rss>
        """

    @Test("a billion-laughs document fails fast with a clear error")
    func billionLaughs() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(throws: SourceError.self) { try FeedParser.parse(Data(Self.billionLaughs.utf8)) }
        #expect(error.kind == .parse)
        #expect(error.message.hasPrefix("entity expansion limit exceeded"))
        #expect(error.message.contains("line 14"))
        // It takes milliseconds; the bound only catches an expansion that actually ran.
        #expect(clock.now - start < .seconds(10))
    }

    /// One 20 KB entity referenced 200,000 times: a 620 KB document that means 4 GB of text.
    static func quadraticBlowup(inAttribute: Bool) -> Data {
        let entity = String(repeating: "x", count: 20_000)
        let references = String(repeating: "&e;", count: 200_000)
        let body = inAttribute
            ? #"<item><title>t</title><enclosure url="\#(references)"/></item>"#
            : "<title>\(references)</title><item><title>t</title></item>"
        return Data(#"<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY e "\#(entity)">]><rss><channel>\#(body)</channel></rss>"#.utf8)
    }

    @Test("one large entity referenced many times (quadratic blowup) stops at the expansion bound",
          arguments: [false, true])
    func quadraticBlowup(inAttribute: Bool) throws {
        // libxml2 2.9 lets this through to a SAX application: 95 s and 7.8 GB of memory before our bound.
        let error = try #require(throws: SourceError.self) {
            try FeedParser.parse(Self.quadraticBlowup(inAttribute: inAttribute))
        }
        #expect(error.kind == .parse)
        #expect(error.message.hasPrefix("entity expansion limit exceeded"), "\(error)")
    }

    @Test("an entity the document declares is expanded, in text, CDATA-bound runs, links and attributes")
    func smallInternalEntity() throws {
        // libxml2's SAX2 parser delivers a declared entity's text (FoundationXML on Linux delivered nothing,
        // and a repair pass used to write plain ones out before the parser saw them).
        let xml = #"""
            <!DOCTYPE rss [ <!ENTITY site "Example &amp; Co"> <!ENTITY site "ignored: the first declaration binds">
              <!ENTITY q 'say "hi"'> <!ENTITY host "example.com"> ]>
            <rss><channel><title>&site; news</title><link>https://&host;/</link>
            <item><title>&q; &amp; &eacute;t&eacute; with &site;</title><guid>1</guid>
            <enclosure url="https://&host;/a.mp3?x=1&amp;y=2" type="audio/mpeg"/></item></channel></rss>
            """#
        let feed = try FeedParser.parse(Data(xml.utf8))
        #expect(feed.title == "Example & Co news")
        #expect(feed.link?.absoluteString == "https://example.com/")
        #expect(feed.entries.first?.title == #"say "hi" & été with Example & Co"#)
        #expect(feed.entries.first?.enclosureURL?.absoluteString == "https://example.com/a.mp3?x=1&y=2")
    }

    @Test("an entity that refers to another is expanded by libxml2, within its amplification bound")
    func compositeInternalEntity() throws {
        // FoundationXML dropped it ("[|A]"); libxml2's own SAX2 parser delivers what the document means.
        let xml = #"<!DOCTYPE rss [ <!ENTITY a "A"> <!ENTITY ab "&a;B"> ]><rss><channel><title>[&ab;|&a;]</title></channel></rss>"#
        let title = try FeedParser.parse(Data(xml.utf8)).title
        #expect(title == "[AB|A]", "\(String(reflecting: title))")
    }

    @Test("an external entity never reads a local file", arguments: [
        #"<!DOCTYPE rss [ <!ENTITY xxe SYSTEM "file://SECRET"> ]><rss><channel><title>a&xxe;b</title></channel></rss>"#,
        #"<!DOCTYPE rss [ <!ENTITY % p SYSTEM "file://SECRET"> %p; ]><rss><channel><title>ab</title></channel></rss>"#,
        #"<!DOCTYPE rss SYSTEM "file://SECRET"><rss><channel><title>ab</title></channel></rss>"#,
    ])
    func externalEntity(template: String) throws {
        let secret = "TOP-SECRET-\(UUID().uuidString)"
        let secretFile = try Fixture.write(Data(secret.utf8), name: "secret.txt")
        // Also a DTD that would define &xxe; as the secret, should one ever be loaded.
        let dtd = try Fixture.write(Data("<!ENTITY xxe \"\(secret)\">".utf8), name: "evil.dtd")
        for target in [secretFile, dtd] {
            let xml = template.replacingOccurrences(of: "file://SECRET", with: target.absoluteString)
            let outcome = Result { try FeedParser.parse(Data(xml.utf8)) }
            if case .success(let feed) = outcome {
                #expect(feed.title?.contains("TOP-SECRET") != true)
                #expect(feed.title?.hasPrefix("a") ?? true)
            }
            if case .failure(let error) = outcome {
                #expect(!error.localizedDescription.contains("TOP-SECRET"))
            }
        }
    }
}
