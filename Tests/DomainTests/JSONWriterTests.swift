import Domain
import Foundation
import Testing

@Suite("JSON writer: the one way JSON text is written")
struct JSONWriterTests {
    @Test("strings escape quotes, backslashes and control characters only, non-ASCII stays as it is")
    func escaping() {
        var writer = JSONWriter()
        writer.string("a\"b\\c\nd\re\tf\u{01}g\u{1F}h/日本語 👍\u{7F}")
        #expect(writer.text == #""a\"b\\c\nd\re\tf\u0001g\u001fh/日本語 👍\#u{7F}""#)
    }

    @Test("what it writes parses back to the same value", arguments: [
        JSONValue.object(["b": [1, 2.5, "x", nil, true, false], "a": ["nested": ["deep": -0.001]], "": "empty key"]),
        JSONValue.array([.int(-123_456_789_012), .int(Int.max), .int(0), .int(-7), .double(1e300), .double(-2.25)]),
        JSONValue.string("line\nbreak \u{00} nul"),
    ])
    func roundTrip(value: JSONValue) throws {
        for pretty in [false, true] {
            var writer = JSONWriter(pretty: pretty)
            writer.value(value)
            #expect(try JSONValue.parse(Data(writer.bytes)) == value)
        }
    }

    @Test("numbers: integers as integers, integral doubles without a fraction, non-finite doubles as null")
    func numbers() {
        #expect(JSONValue.array([.int(Int.min), .double(21), .double(21.3), .double(.infinity), .double(.nan)]).compactJSON
            == "[-9223372036854775808,21,21.3,null,null]")
    }

    @Test("compact: no spaces, object keys sorted")
    func compact() {
        #expect(JSONValue.object(["b": 1, "a": ["z": [], "y": [:]]]).compactJSON == #"{"a":{"y":{},"z":[]},"b":1}"#)
    }

    @Test("pretty: two-space indent, keys in the order written, nested values' keys sorted, empty containers closed")
    func pretty() {
        var writer = JSONWriter(pretty: true)
        writer.beginObject()
        writer.key("z")
        writer.int(1)
        writer.key("a")
        writer.value(["b": [], "a": [1, ["k": "v"]]])
        writer.key("e")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        #expect(writer.text == """
            {
              "z": 1,
              "a": {
                "a": [
                  1,
                  {
                    "k": "v"
                  }
                ],
                "b": []
              },
              "e": []
            }
            """)
    }
}
