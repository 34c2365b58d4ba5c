import Domain
import Foundation
import ProviderTesting
import Testing

@testable import FilesProvider

/// The streaming CSV reader against the one it replaced (CSV.swift, `CSVSwiftReader`): the same rows, fields
/// and lines on generated files full of edge cases, read in chunks from 1 byte up so rows straddle every
/// boundary, and the same errors.
@Suite("CSV reader: golden test against CSV.swift")
struct CSVGoldenTests {
    private static let chunkSizes = [1, 2, 3, 7, 64, 256 << 10]

    private static let plainCells = [
        "", "word", "two words", "42", "-7", "3.25", "1e3", "01234", "+82", "true", "false", "TRUE", "café",
        "Seoul → Busan", "東京", "a\"b", "x y ", "0", "-0.5", "99999999999999999999", "2026-11-20",
    ]
    private static let quotedCells = [
        "\"\"", "\"with, comma\"", "\"with ; semicolon\"", "\"tab\there\"", "\"pipe | here\"",
        "\"line one\nline two\"", "\"crlf\r\ninside\"", "\"the \"\"smart\"\" one\"", "\"\"\"\"", "\"42\"",
        "\"three\n\nbreaks\n\"", "\"ends in a quote \"\"\"",
    ]

    /// A CSV text of `rows` rows plus the header; every cell drawn from the lists above.
    private static func document(delimiter: Character, random: inout SeededRandom) -> String {
        let columns = Int.random(in: 1...5, using: &random)
        let breaks = ["\n", "\r\n"]
        let lineBreak = breaks.randomElement(using: &random)!
        var text = Bool.random(using: &random) ? "\u{FEFF}" : ""
        text += (0..<columns).map { "h\($0 % 3)" }.joined(separator: String(delimiter)) + lineBreak
        let count = Int.random(in: 0...30, using: &random)
        for row in 0..<count {
            if Int.random(in: 0..<12, using: &random) == 0 { text += lineBreak }  // a blank line
            let cells = (0..<columns).map { _ in
                let quoted = Bool.random(using: &random)
                let cell = (quoted ? quotedCells : plainCells).randomElement(using: &random)!
                // A plain cell must not hold the delimiter or start with a quote (that would make it quoted).
                return quoted || (!cell.contains(delimiter) && !cell.hasPrefix("\"")) ? cell : "plain"
            }
            text += cells.joined(separator: String(delimiter))
            if row < count - 1 || Bool.random(using: &random) { text += Int.random(in: 0..<6, using: &random) == 0 ? "\r" : lineBreak }
        }
        return text
    }

    @Test("generated files give the same rows and lines as CSV.swift, whatever the chunk size")
    func generated() throws {
        let directory = try ScratchDirectory.Folder("files")
        var random = SeededRandom(state: 20)
        for index in 0..<150 {
            let delimiter: Character = [",", ";", "\t", "|"][index % 4]
            let text = Self.document(delimiter: delimiter, random: &random)
            let file = try directory.write("\(index).csv", text)
            let byte = delimiter.asciiValue!
            let expected = try readAllRows(CSVSwiftReader(delimiter: byte), at: file)
            for chunkSize in Self.chunkSizes {
                let rows = try readAllRows(CSVFileReader(delimiter: byte, chunkSize: chunkSize), at: file)
                #expect(rows == expected, "file \(index), chunk \(chunkSize): \(text.debugDescription)")
            }
        }
    }

    @Test("the recorded fixture reads the same as with CSV.swift")
    func fixture() throws {
        let file = try fixtureURL("tasks.csv")
        let expected = try readAllRows(CSVSwiftReader(), at: file)
        #expect(expected.count == 4)
        #expect(try readAllRows(CSVFileReader(), at: file) == expected)
    }

    @Test("broken files fail with the same error as with CSV.swift", arguments: [
        "a,b\n1,2\n3,\"open\n4,5\n6,7\n",  // unterminated quote
        "a,b\n1,2\n\"x\"y,3\n",  // text after a closing quote
        "a,b\n\"multi\nline\",2\n\"x\" ,3\n",  // a space after a closing quote, after a multi-line row
        "a,b,c\n1,2,3\n\"x\ny\",2,3\n4,5\n",  // too few fields after a multi-line row
        "a,b\n1,2,3\n",  // too many fields
        "a,b\n1,\"\"\"\n",  // a doubled quote and then the end of the file
    ])
    func errors(text: String) throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.csv", text)
        let expected = try #require(readError { _ = try readAllRows(CSVSwiftReader(), at: file) })
        for chunkSize in Self.chunkSizes {
            let error = readError { _ = try readAllRows(CSVFileReader(delimiter: UInt8(ascii: ","), chunkSize: chunkSize), at: file) }
            #expect(error == expected, "chunk \(chunkSize)")
        }
    }

    @Test("a byte-order mark and a tab delimiter, with a header and a quoted tab")
    func byteOrderMarkAndTabs() throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.tsv", "\u{FEFF}name\tnote\nMina\t\"a\tb\"\n")
        let rows = try readAllRows(CSVFileReader(delimiter: UInt8(ascii: "\t")), at: file)
        #expect(rows.map(\.fields) == [["name": "Mina", "note": "a\tb"]])
    }

    @Test("memory stays at one chunk plus the longest row")
    func bounded() throws {
        let directory = try ScratchDirectory.Folder("files")
        let row = "1,\"a, quoted\nfield\",3.5\n"
        let file = try directory.write("a.csv", "a,b,c\n" + String(repeating: row, count: 20_000))
        let reader = CSVRowReader(input: try FileInput(url: file), delimiter: UInt8(ascii: ","), chunkSize: 4096)
        var rows = 0
        while try reader.nextRow() { rows += 1 }
        #expect(rows == 20_001)
        #expect(reader.peakBufferSize == 4096)
    }
}
