@testable import Presentation
import Testing

@Suite("Markdown escaping")
struct MarkdownEscapeTests {
    @Test("text with nothing to escape is returned as is; anything else is escaped character by character")
    func plainTextFastPath() {
        let bytes = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        let texts = bytes + bytes.map { "a\($0)b" }
            + ["a\r\nb", "plain text, 42 (ok)", "café", "x\u{85}y", "日本 | 語", ""]
        for text in texts {
            let characterByCharacter = MarkdownRenderer.escapeEach(text, lineBreak: "<br>")
            #expect(MarkdownRenderer.escape(text) == characterByCharacter, "\(Array(text.utf8))")
        }
        #expect(MarkdownRenderer.escape("a_b|c") == #"a\_b\|c"#)
        #expect(MarkdownRenderer.escape("x\u{85}y") == "x y")
        #expect(MarkdownRenderer.escape("plain text") == "plain text")
    }
}
