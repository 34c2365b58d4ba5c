@testable import Presentation
import Testing

@Suite("Terminal text")
struct TerminalTextTests {
    @Test("widths count terminal columns", arguments: [
        ("abc", 3), ("日本語", 6), ("e\u{301}", 1), ("👍", 2), ("👍🏽", 2), ("🇰🇷", 2), ("°C", 2), ("", 0),
    ])
    func widths(text: String, columns: Int) {
        #expect(TerminalText.width(text) == columns)
    }

    @Test("ASCII is measured without Unicode lookups, to the same widths as character by character")
    func asciiWidths() {
        let bytes = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        let texts = bytes + bytes.map { "\r" + $0 }
            + ["a\r\nb", "\r\n\r\n", "\r\r\n", "tab\there", "plain text", "x\u{7F}y"]
        for text in texts {
            let characterByCharacter = text.reduce(0) { $0 + TerminalText.width(of: $1) }
            #expect(TerminalText.width(text) == characterByCharacter, "\(Array(text.utf8))")
        }
        #expect(TerminalText.width("a\r\nb") == 3)
    }

    @Test("truncation never splits a character nor exceeds the columns")
    func truncation() {
        #expect(TerminalText.truncated("hello world", to: 5) == "hell…")
        #expect(TerminalText.truncated("hello", to: 5) == "hello")
        #expect(TerminalText.truncated("日本語です", to: 6) == "日本…")
        #expect(TerminalText.truncated("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
        #expect(TerminalText.fitted("日本", to: 6, alignment: .right) == "  日本")
    }

    @Test("control characters become single spaces")
    func sanitising() {
        #expect(TerminalText.sanitized("a\r\nb\n\nc\u{1B}d") == "a b c d")
        #expect(TerminalText.sanitized("plain") == "plain")
    }
}
