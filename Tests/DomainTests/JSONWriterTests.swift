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

    @Test("strings of every length with escapes at every offset match a character-by-character escaper")
    func escapingAtEveryOffset() {
        let pieces = ["a", "b", " ", "é", "日", "👍", "\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "\u{7F}",
                      "/"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for length in 0..<48 {
            for _ in 0..<8 {
                let text = (0..<length).map { _ in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return pieces[Int(state >> 33) % pieces.count]
                }.joined()
                var writer = JSONWriter()
                writer.string(text)
                #expect(writer.text == Self.reference(text), "\(Array(text.utf8))")
            }
        }
    }

    /// JSON string escaping written out plainly, one character at a time.
    static func reference(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test("values far larger than the writer's staging buffer come out byte for byte, after text already written")
    func largeValues() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func text(_ length: Int, escapesEvery gap: Int?) -> String {
            String((0..<length).map { index -> Character in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                if let gap, index % gap == gap - 1 { return ["\"", "\\", "\n", "\u{01}"][Int(state >> 33) % 4] }
                return ["a", "é", "日", " "][Int(state >> 33) % 4]
            })
        }
        // A long run with no escapes, one with an escape every few bytes, and thousands of short strings: each
        // overflows the stage in its own way.
        let strings = [text(100_000, escapesEvery: nil), text(50_000, escapesEvery: 7),
                       text(9_000, escapesEvery: 4_500), text(3_000, escapesEvery: nil)]
            + (0..<5_000).map { text($0 % 13, escapesEvery: 5) }
            // Around the stage's sizes (1 KiB, escaped in pieces of 128, runs of 256 and more appended directly).
            + [127, 128, 129, 255, 256, 257, 1_023, 1_024, 1_025].flatMap { length in
                [text(length, escapesEvery: nil), text(length, escapesEvery: 128)]
            }
        var writer = JSONWriter()
        writer.beginArray()
        writer.string("before")
        writer.value(.array(strings.map { .string($0) }))
        writer.int(-42)
        writer.endArray()
        let expected = "[\"before\",[" + strings.map(Self.reference).joined(separator: ",") + "],-42]"
        // Compared outside the expectation: printing 200 KB of text on a failure helps nobody.
        let mismatch = zip(writer.text.utf8, expected.utf8).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(mismatch == nil && writer.text.utf8.count == expected.utf8.count,
                "first difference at byte \(mismatch ?? min(writer.text.utf8.count, expected.utf8.count))")

        var pretty = JSONWriter(pretty: true)
        pretty.value(.object(["long": .string(strings[1]), "many": .array(strings.map { .string($0) })]))
        #expect(try JSONValue.parse(Data(pretty.bytes)) == .object(["long": .string(strings[1]),
                                                                     "many": .array(strings.map { .string($0) })]))
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

    @Test("object keys sort as String's < sorts them, whatever their number or script (NFC and not)")
    func keyOrder() throws {
        let scripts = ["a", "B", "_", "é", "e\u{301}", "日", "👍", "Z9", "", "aa", "a\u{0}", "ß", "ss", "Å", "A\u{30A}", "\u{212B}"]
        var generator = SystemRandomNumberGenerator()
        for count in [2, 3, 7, 16, 40, 200] {
            var members: JSONObject = [:]
            while members.count < count {
                let key = (0..<Int.random(in: 1...3, using: &generator)).map { _ in scripts.randomElement(using: &generator)! }.joined()
                members[key] = .int(members.count)
            }
            // The reference: pairs sorted by String's <, written one by one.
            var expected = JSONWriter()
            expected.beginObject()
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                expected.key(key)
                expected.value(value)
            }
            expected.endObject()
            #expect(JSONValue.object(members).compactJSON == expected.text)
            var pretty = JSONWriter(pretty: true)
            pretty.value(.object(members))
            #expect(try JSONValue.parse(Data(pretty.bytes)) == .object(members))
            #expect(pretty.text.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "  ", with: "")
                .replacingOccurrences(of: "\": ", with: "\":") == expected.text)
        }
    }

    @Test("an item is byte for byte the object its members make, compact and pretty, also as an array element",
          arguments: [false, true])
    func item(pretty: Bool) {
        let items = [
            Item(kind: .record, id: "1", title: "T \"q\"", fields: ["b": 1, "a": ["y": [true, nil], "x": "日本"]]),
            Item(kind: .entry, id: "u:2", title: "E", subtitle: "S", url: URL(string: "https://example.org/a?b=c"),
                 date: Date(timeIntervalSince1970: 1_795_161_600), fields: [:]),
        ]
        var array = JSONWriter(pretty: pretty)
        array.beginArray()
        var members = JSONWriter(pretty: pretty)
        members.beginArray()
        for item in items {
            array.item(item, source: "src\n")
            members.beginObject()
            members.key("source")
            members.string("src\n")
            members.key("kind")
            members.string(item.kind.rawValue)
            members.key("id")
            members.string(item.id)
            members.key("title")
            members.string(item.title)
            members.key("subtitle")
            members.string(item.subtitle)
            members.key("url")
            members.string(item.url?.absoluteString)
            members.key("date")
            members.string(item.date.map(ISO8601.string(from:)))
            members.key("fields")
            members.value(.object(item.fields))
            members.endObject()
        }
        array.endArray()
        members.endArray()
        #expect(array.text == members.text)
        #expect(pretty || array.text.hasPrefix(#"[{"source":"src\n","kind":"record","id":"1","title":"T \"q\"","subtitle":null,"url":null,"date":null,"fields":{"a":{"x":"日本","y":[true,null]},"b":1}},{"#))
    }
}
