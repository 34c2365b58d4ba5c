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
}
