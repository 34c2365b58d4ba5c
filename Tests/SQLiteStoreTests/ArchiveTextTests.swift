import Domain
import Foundation
import StoreSupport
import Testing

@Suite("The archive's text: markup out, entities decoded, white space folded, other text kept as it is")
struct ArchiveTextTests {
    @Test("tags leave one space, entities are decoded, and runs of white space of any kind fold to one space", arguments: [
        ("<p>Hello <b>big</b>\n\t world</p>", "Hello big world"),
        ("a&amp;b &lt;tag&gt; &quot;q&quot; &apos;s&#39;", "a&b <tag> \"q\" 's'"),
        ("caf&#233; &#x2603; &#X41;", "café ☃ A"),
        ("one&nbsp;two\u{00A0}\u{3000}three\u{2028}four", "one two three four"),
        ("  \r\n<div> </div>  ", ""),
        ("naïve 日本語 🎉 <br/>emoji", "naïve 日本語 🎉 emoji"),
    ])
    func strips(html: String, text: String) {
        #expect(ArchiveText.stripMarkup(html) == text)
    }

    @Test("what is not markup stays: a lone '<', an unknown or unterminated entity, a ';' too far away", arguments: [
        ("1 < 2 and 3", "1 < 2 and 3"),
        ("&bogus; &amp", "&bogus; &amp"),
        ("&#;&#xZZ; & ;", "&#;&#xZZ; & ;"),
        ("&verylongname12;", "&verylongname12;"),
        ("&#1114112;", "&#1114112;"),
    ])
    func keeps(html: String, text: String) {
        #expect(ArchiveText.stripMarkup(html) == text)
    }

    @Test("an item's body: its fields' strings without markup, leaving out its title, URL and dates")
    func body() throws {
        let item = Item(kind: .entry, id: "urn:1", title: "Title", url: URL(string: "https://example.org/1"),
                        fields: ["summary": .string("<p>First &amp; <i>second</i></p>"), "title": .string("Title"),
                                 "link": .string("https://example.org/1"), "published": .string("2026-11-20T08:00:00Z"),
                                 "tags": .array([.string("swift"), .int(3), .string("feeds")])])
        #expect(ArchiveText.body(of: item) == "First & second\nswift\nfeeds")
    }
}
