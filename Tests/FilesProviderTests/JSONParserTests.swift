import Domain
import Foundation
import Testing

@testable import FilesProvider

@Suite("JSON parser")
struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParser.Failure) -> JSONValue {
        try JSONParser.parse(Data(text.utf8))
    }

    private func failure(_ text: String) -> JSONParser.Failure? {
        do throws(JSONParser.Failure) {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("objects, arrays and scalars become the matching JSON values")
    func values() throws {
        let value = try parse(#" { "a": [1, -2, 3.5, 1e3, true, false, null], "b": {"c": "d"}, "e": "" } "#)
        #expect(value == ["a": [1, -2, 3.5, 1000.0, true, false, nil], "b": ["c": "d"], "e": ""])
    }

    @Test("integers stay integers and overflowing ones become doubles")
    func integers() throws {
        #expect(try parse("9223372036854775807") == .int(Int.max))
        #expect(try parse("-9223372036854775808") == .int(Int.min))
        #expect(try parse("9223372036854775808") == .double(9223372036854775808))
        #expect(try parse("0") == .int(0))
        #expect(try parse("-0.0") == .double(-0.0))
    }

    @Test("escapes, including surrogate pairs, decode to the right text")
    func escapes() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try parse(#""\ud83d x""#) == .string("\u{FFFD} x"))
        #expect(try parse(#""서울 Busan""#) == .string("서울 Busan"))
    }

    @Test("a later duplicate key wins")
    func duplicateKeys() throws {
        #expect(try parse(#"{"a": 1, "a": 2}"#) == ["a": 2])
    }

    @Test("malformed text is refused with the line and column of the problem", arguments: [
        ("{\"a\": 1,\n  \"b\" 2}", 2, 7),
        ("[1, 2", 1, 6),
        ("{\"a\": tru}", 1, 7),
        ("01", 1, 2),
        ("[1,]", 1, 4),
        ("\"abc", 1, 5),
        ("{\"a\": 1} x", 1, 10),
        ("\"tab\there\"", 1, 5),
        ("", 1, 1),
    ])
    func malformed(text: String, line: Int, column: Int) throws {
        let error = try #require(failure(text))
        #expect(error.line == line)
        #expect(error.column == column)
    }

    @Test("nesting deeper than the limit is refused instead of exhausting the stack")
    func depthLimit() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(failure(deep))
        #expect(error.message.contains("nesting deeper"))
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { try parse(fine) }
    }
}
