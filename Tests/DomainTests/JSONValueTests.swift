import Domain
import Foundation
import Testing

@Suite("JSON values")
struct JSONValueTests {
    @Test("parsing keeps booleans, integers and doubles apart")
    func numbers() throws {
        let value = try JSONValue.parse(Data(#"{"b":true,"i":3,"d":21.5,"z":0,"f":false,"s":"x","n":null}"#.utf8))
        #expect(value == ["b": true, "i": 3, "d": 21.5, "z": 0, "f": false, "s": "x", "n": nil])
    }

    @Test("compact JSON sorts keys and escapes control characters")
    func compact() {
        let value: JSONValue = ["b": [1, 2.5, "q\"\n\u{1}"], "a": nil]
        #expect(value.compactJSON == #"{"a":null,"b":[1,2.5,"q\"\n\u0001"]}"#)
    }

    @Test("display text drops the fraction of integral doubles")
    func display() {
        #expect(JSONValue.double(21).displayText == "21")
        #expect(JSONValue.double(21.3).displayText == "21.3")
    }

    @Test("ISO 8601 round-trips in UTC and accepts fractions, offsets and plain dates",
          arguments: ["2026-11-22T10:00:00Z", "2026-11-22T10:00:00.250Z", "2026-11-22T11:00:00+01:00"])
    func iso(text: String) throws {
        let date = try #require(ISO8601.date(from: text))
        #expect(ISO8601.string(from: date) == "2026-11-22T10:00:00Z")
    }

    @Test("a plain date is midnight UTC and garbage is nil")
    func plainDate() {
        #expect(ISO8601.date(from: "2010-07-15").map(ISO8601.string(from:)) == "2010-07-15T00:00:00Z")
        #expect(ISO8601.date(from: "yesterday") == nil)
    }
}

@Suite("Feed locations in messages")
struct FeedLocationTests {
    @Test("a feed URL is named without its query, which may carry a credential")
    func urlWithoutQuery() throws {
        let url = try #require(URL(string: "https://user:pw@example.com/private/feed.xml?token=s3cret&x=1#top"))
        #expect(FeedLocation.url(url).description == "https://example.com/private/feed.xml?…")
        let plain = try #require(URL(string: "https://example.com/feed.xml"))
        #expect(FeedLocation.url(plain).description == "https://example.com/feed.xml")
    }

    @Test("text saved as UTF-16 or UTF-32 with a byte order mark parses as its UTF-8 does", arguments: [
        String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian,
    ])
    func unicodeEncodings(encoding: String.Encoding) throws {
        let text = #"{"name": "Zürich 東京", "n": [1, 2.5, true, null]}"#
        let marks: [String.Encoding: [UInt8]] = [
            .utf16LittleEndian: [0xFF, 0xFE], .utf16BigEndian: [0xFE, 0xFF],
            .utf32LittleEndian: [0xFF, 0xFE, 0x00, 0x00], .utf32BigEndian: [0x00, 0x00, 0xFE, 0xFF],
        ]
        let data = Data(try #require(marks[encoding])) + (try #require(text.data(using: encoding)))
        #expect(try JSONValue.parse(data) == JSONValue.parse(Data(text.utf8)))
    }

    @Test("a syntax error says the line and column of the first byte that breaks the text")
    func syntaxError() {
        #expect(throws: JSONValue.SyntaxError(line: 2, column: 8, message: "expected ':' after an object key, found '1'")) {
            try JSONValue.parse(Data("{\"a\": 1,\n  \"b\"  1}".utf8))
        }
        let error = JSONValue.SyntaxError(line: 2, column: 8, message: "m")
        #expect(error.description == "line 2, column 8: m")
    }
}
