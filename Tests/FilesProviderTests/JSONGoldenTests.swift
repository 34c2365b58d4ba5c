import Domain
import Foundation
import ProviderTesting
import Testing

@testable import FilesProvider

/// The streaming JSON reader against the whole document parsed at once (how the reader worked before issue
/// 20): the same rows on generated documents of every accepted shape, read in chunks from 1 byte up so every
/// value straddles a boundary, with each top-level element's own line; and the same syntax errors.
@Suite("JSON reader: golden test against the whole-document parse")
struct JSONGoldenTests {
    private static let chunkSizes = [1, 2, 3, 7, 64, 1 << 20]

    /// The rows the whole-document parse gives, by the reader's shape rules.
    private static func referenceRows(_ text: String) throws -> [JSONObject] {
        let value = try JSONParser.parse(Data(text.utf8))
        let elements: [JSONValue]
        switch value {
        case .array(let array): elements = array
        case .object(let members):
            let arrays = members.filter { $0.value.arrayValue != nil }
            let key = arrays.count == 1 ? arrays.first!.key : JSONFileReader.envelopeKeys.first { arrays[$0] != nil }
            let chosen = try #require(key)
            elements = try #require(members[chosen]?.arrayValue)
        default:
            Issue.record("not a shape the reader takes")
            return []
        }
        return elements.map { $0.objectValue ?? [:] }
    }

    private static let strings = [
        "plain", "", "with \\\"quotes\\\" and \\\\ backslash", "tab\\tnew\\nline", "caf\\u00e9 \\ud83d\\ude00", "東京",
        "slash \\/", "[not, an] {array}",
    ]

    /// A random JSON value (as text) nested at most `depth` levels.
    private static func value(depth: Int, random: inout SeededRandom) -> String {
        switch Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &random) {
        case 0: return "\"\(strings.randomElement(using: &random)!)\""
        case 1: return String(Int.random(in: -1_000_000...1_000_000, using: &random))
        case 2: return ["3.25", "-0.5", "1e3", "2.5E-3", "9223372036854775808", "0"].randomElement(using: &random)!
        case 3: return ["true", "false", "null"].randomElement(using: &random)!
        case 4: return "\"\(strings.randomElement(using: &random)!)\""
        case 5: return "[]"
        case 6, 7: return object(depth: depth - 1, random: &random)
        default:
            let count = Int.random(in: 0...4, using: &random)
            return "[" + (0..<count).map { _ in value(depth: depth - 1, random: &random) }.joined(separator: ",") + "]"
        }
    }

    private static func object(depth: Int, random: inout SeededRandom) -> String {
        let count = Int.random(in: 0...5, using: &random)
        let members = (0..<count).map { index in
            "\(space(&random))\"k\(index % 4)\"\(space(&random)):\(space(&random))\(value(depth: depth, random: &random))"
        }
        return "{" + members.joined(separator: ",") + space(&random) + "}"
    }

    private static func space(_ random: inout SeededRandom) -> String {
        ["", "", " ", "\n", "\t", " \n  ", "\r\n"].randomElement(using: &random)!
    }

    /// A top-level array of objects, and the line each element starts on.
    private static func array(random: inout SeededRandom) -> (text: String, lines: [Int]) {
        var text = space(&random) + "["
        var lines: [Int] = []
        for index in 0..<Int.random(in: 0...25, using: &random) {
            text += (index > 0 ? "," : "") + space(&random)
            lines.append(text.filter { $0 == "\n" || $0 == "\r\n" }.count + 1)
            text += object(depth: 3, random: &random)
        }
        return (text + space(&random) + "]" + space(&random), lines)
    }

    @Test("generated top-level arrays give the same rows, and each element's line, at every chunk size")
    func arrays() throws {
        let directory = try ScratchDirectory.Folder("files")
        var random = SeededRandom(state: 20)
        for index in 0..<120 {
            let (body, lines) = Self.array(random: &random)
            let text = (index % 5 == 0 ? "\u{FEFF}" : "") + body
            let file = try directory.write("\(index).json", text)
            let expected = try Self.referenceRows(body)
            for chunkSize in Self.chunkSizes {
                let rows = try readAllRows(JSONFileReader(chunkSize: chunkSize), at: file)
                #expect(rows.map(\.fields) == expected, "file \(index), chunk \(chunkSize)")
                #expect(rows.map(\.line) == lines, "file \(index), chunk \(chunkSize)")
            }
        }
    }

    @Test("generated objects holding the array (alone, or among others as items/data/records/results) read the same")
    func envelopes() throws {
        let directory = try ScratchDirectory.Folder("files")
        var random = SeededRandom(state: 21)
        for index in 0..<80 {
            let (records, _) = Self.array(random: &random)
            let key = ["notes", "items", "data", "records", "results"][index % 5]
            var members = ["\"\(key)\": \(records)"]
            if key != "notes" {  // the envelope: other arrays and values around the records
                members.insert("\"facets\": [1, {\"a\": [2]}]", at: 0)
                members.append("\"page\": \(Self.value(depth: 2, random: &random))")
                if index % 3 == 0 { members.append("\"warnings\": [\"x\"]") }
            } else if index % 2 == 0 {
                members.append("\"generated\": {\"at\": \"today\", \"list\": null}")
            }
            let text = "{" + members.joined(separator: "," + Self.space(&random)) + "}\n"
            let file = try directory.write("\(index).json", text)
            let expected = try Self.referenceRows(text)
            for chunkSize in Self.chunkSizes {
                let rows = try readAllRows(JSONFileReader(chunkSize: chunkSize), at: file)
                #expect(rows.map(\.fields) == expected, "file \(index), chunk \(chunkSize)")
                #expect(rows.map(\.line) == Array(stride(from: 1, through: expected.count, by: 1)))
            }
        }
    }

    @Test("the recorded fixtures read the same at every chunk size", arguments: ["notes.json", "github-issues.json"])
    func fixtures(name: String) throws {
        let file = try fixtureURL(name)
        let expected = try Self.referenceRows(String(contentsOf: file, encoding: .utf8))
        #expect(!expected.isEmpty)
        for chunkSize in Self.chunkSizes {
            #expect(try readAllRows(JSONFileReader(chunkSize: chunkSize), at: file).map(\.fields) == expected)
        }
    }

    @Test("syntax errors are those of the whole-document parse, at every chunk size", arguments: [
        "[\n{\"n\": 1},\n{\"n\": }\n]", "[{\"a\": 1} {\"b\": 2}]", "[{\"a\": 1},\n  {\"b\": tru}]", "[{\"a\": \"x]",
        "[{\"a\": 1}] x", "{\"items\": [{\"a\": 1}], \"x\": [1,]}", "{\"items\": [{\"a\": 1}]", "[{\"a\": 1.}]",
        "[{\"a\": \"\\u12\"}]", "{\"k\" 1}", "[{\"a\": -}]",
    ])
    func syntaxErrors(text: String) throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.json", text)
        let expected: SourceError
        do throws(JSONParser.Failure) {
            _ = try JSONParser.parse(Data(text.utf8))
            Issue.record("the reference parse accepted \(text)")
            return
        } catch {
            expected = error.sourceError
        }
        for chunkSize in Self.chunkSizes {
            let error = readError { _ = try readAllRows(JSONFileReader(chunkSize: chunkSize), at: file) }
            #expect(error == expected, "chunk \(chunkSize)")
        }
    }

    @Test("memory stays at one chunk plus the largest element")
    func bounded() throws {
        let directory = try ScratchDirectory.Folder("files")
        let element = #"{"id": 1, "title": "an element of about a hundred bytes, give or take", "tags": ["a", "b"]}"#
        let file = try directory.write("a.json", "[" + Array(repeating: element, count: 20_000).joined(separator: ",\n") + "]")
        let stream = JSONElementStream(input: try FileInput(url: file), chunkSize: 4096)
        #expect(try stream.start() == UInt8(ascii: "["))
        #expect(try stream.consume(UInt8(ascii: "[")))
        var count = 0
        while try stream.nextElement(first: count == 0) != nil { count += 1 }
        try stream.finish()
        #expect(count == 20_000)
        #expect(stream.peakBufferSize == 4096)
    }
}
