import Domain
import Foundation
import Testing

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

    @Test("number errors point at the byte that breaks the grammar", arguments: [
        ("-x", 1, 2, "invalid number"), ("1.x", 1, 3, "no digit after '.'"), ("1e+", 1, 4, "no digit in exponent"),
        ("[00]", 1, 3, "leading zero"), ("1e999", 1, 1, "out of range"),
    ])
    func numberErrors(text: String, line: Int, column: Int, message: String) throws {
        let error = try #require(failure(text))
        #expect((error.line, error.column) == (line, column))
        #expect(error.message.contains(message))
    }

    @Test("one workspace parses document after document: a failure mid-object leaves no members behind")
    func workspaceReuse() throws {
        let workspace = JSONParser.Workspace()
        func parse(_ text: String) throws(JSONParser.Failure) -> JSONValue {
            var bytes = Array(text.utf8)
            let result = bytes.withUnsafeMutableBufferPointer { buffer in
                Result { () throws(JSONParser.Failure) in try JSONParser.parse(UnsafeBufferPointer(buffer), workspace: workspace) }
            }
            return try result.get()
        }
        // Wide and nested objects: the workspace grows while outer objects' members wait in it.
        let wide = (0..<100).map { #""k\#($0)": {"inner": \#($0), "list": [{"x": 1}, {"y": 2}]}"# }.joined(separator: ",")
        let expectedWide = JSONValue.object(JSONObject(Dictionary(uniqueKeysWithValues: (0..<100).map {
            ("k\($0)", JSONValue.object(["inner": .int($0), "list": [["x": 1], ["y": 2]]]))
        })))
        #expect(try parse("{\(wide)}") == expectedWide)
        #expect(workspace.count == 0)
        for broken in [#"{"a": 1, "b": {"c": 2, "d": tru}}"#, #"{"a": {"b": 1"#, #"{"a": 1, "b": 2,"#] {
            #expect(throws: JSONParser.Failure.self) { try parse(broken) }
            #expect(workspace.count == 0)
        }
        #expect(try parse(#"{"e": 5, "f": {"g": 6}}"#) == ["e": 5, "f": ["g": 6]])
        #expect(try parse("{\(wide)}") == expectedWide)
    }

    @Test("objects of a shape seen before take its key order only when their keys are the same")
    func workspaceShapes() throws {
        let workspace = JSONParser.Workspace()
        func parse(_ text: String) throws -> JSONValue {
            var bytes = Array(text.utf8)
            return try bytes.withUnsafeMutableBufferPointer { buffer in
                try JSONParser.parse(UnsafeBufferPointer(buffer), workspace: workspace)
            }
        }
        // The same width each time: a shape must match key by key, not by count.
        let rows: [(String, JSONValue)] = [
            (#"{"b": 1, "a": 2, "c": 3}"#, ["a": 2, "b": 1, "c": 3]),
            (#"{"b": 4, "a": 5, "c": 6}"#, ["a": 5, "b": 4, "c": 6]),
            (#"{"b": 7, "d": 8, "c": 9}"#, ["b": 7, "c": 9, "d": 8]),
            (#"{"a": 1, "b": 2, "a": 3}"#, ["a": 3, "b": 2]),
            (#"{"c": 1, "a": 2, "b": 3}"#, ["a": 2, "b": 3, "c": 1]),
            (#"{"b": 1, "a": 2, "c": 3}"#, ["a": 2, "b": 1, "c": 3]),
        ]
        for _ in 0..<3 {
            for (text, expected) in rows {
                let value = try parse(text)
                #expect(value == expected, "\(text)")
                #expect(value.objectValue?.keys == expected.objectValue?.keys)
            }
        }
        // More shapes than are kept, then the first again.
        for width in 2...12 {
            let text = "{" + (0..<width).reversed().map { #""k\#($0)": \#($0)"# }.joined(separator: ",") + "}"
            let value = try parse(text)
            #expect(value.objectValue?.keys == (0..<width).map { "k\($0)" }.sorted())
            #expect(value["k1"] == 1)
        }
        #expect(try parse(rows[0].0) == rows[0].1)
        #expect(workspace.count == 0)
    }
}
