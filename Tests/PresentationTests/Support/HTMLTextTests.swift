@testable import Presentation
import Testing

@Suite("HTML summaries as text")
struct HTMLTextTests {
    @Test("tags, scripts and styles go, entities are decoded, whitespace is folded", arguments: [
        ("<p>Hello <b>world</b></p>", "Hello world"),
        ("Fish &amp; chips &#8212; &#x2603; &hellip;", "Fish & chips — ☃ …"),
        ("<script>alert(1)</script>Safe <style>p{}</style>text", "Safe text"),
        ("AT&T &bogus; & more", "AT&T &bogus; & more"),
        ("  plain\n\n text  ", "plain text"),
    ])
    func plain(html: String, expected: String) {
        #expect(HTMLText.plain(html) == expected)
    }
}
