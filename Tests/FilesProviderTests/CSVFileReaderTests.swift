import Domain
import Foundation
import ProviderTesting
import Testing

@testable import FilesProvider

@Suite("CSV reader")
struct CSVFileReaderTests {
    private func rows(_ text: String, delimiter: Character = ",") throws -> [FileRow] {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.csv", text)
        return try readAllRows(CSVFileReader(delimiter: delimiter.asciiValue!), at: file)
    }

    private func error(_ text: String) throws -> SourceError? {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.csv", text)
        return readError { _ = try readAllRows(CSVFileReader(), at: file) }
    }

    @Test("the header names the fields of every row")
    func header() throws {
        let rows = try rows(try String(contentsOf: fixtureURL("tasks.csv"), encoding: .utf8))
        #expect(rows.count == 4)
        let first: JSONObject = [
            "id": "T-101", "title": "Renew passport", "status": "todo", "due": "2026-12-01",
            "estimateHours": 1.5, "assignee": "Mina",
        ]
        #expect(rows[0].fields == first)
        #expect(rows[1].fields["title"] == "Book train: Seoul → Busan, Friday")
        #expect(rows[3].fields["title"] == #"Replace the "smart" bulb in the hall"#)
        #expect(rows[3].fields["assignee"] == JSONValue.null)
        #expect(rows.map(\.line) == [2, 3, 4, 5])
    }

    @Test("quoted fields keep delimiters and line breaks, and later rows keep true line numbers")
    func embeddedNewlines() throws {
        let rows = try rows("a,b\n\"one\ntwo\nthree\",x\r\n\"p,q\",\"\"\"quoted\"\"\"\nlast,row\n")
        #expect(rows.map(\.fields) == [
            ["a": "one\ntwo\nthree", "b": "x"], ["a": "p,q", "b": #""quoted""#], ["a": "last", "b": "row"],
        ])
        #expect(rows.map(\.line) == [2, 5, 6])
    }

    @Test("another delimiter can be chosen", arguments: [Character(";"), Character("\t"), Character("|")])
    func delimiters(delimiter: Character) throws {
        let text = "name\(delimiter)city\nMina\(delimiter)\"Seoul\(delimiter) Korea\"\n"
        #expect(try rows(text, delimiter: delimiter).map(\.fields) == [["name": "Mina", "city": .string("Seoul\(delimiter) Korea")]])
    }

    @Test("blank lines are skipped")
    func blankLines() throws {
        let rows = try rows("a,b\n1,2\n\n3,4\n\n")
        #expect(rows.map(\.fields) == [["a": 1, "b": 2], ["a": 3, "b": 4]])
        #expect(rows.map(\.line) == [2, 4])
    }

    @Test("a row with the wrong number of fields fails the file with its line")
    func wrongFieldCount() throws {
        let error = try #require(try error("a,b,c\n1,2,3\n\"x\ny\",2,3\n4,5\n"))
        #expect(error == SourceError(.parse, "line 5: expected 3 fields as in the header, found 2"))
    }

    @Test("an unterminated quote fails the file with the line the quote opens on")
    func unterminatedQuote() throws {
        let error = try #require(try error("a,b\n1,2\n3,\"open\n4,5\n6,7\n"))
        #expect(error == SourceError(.parse, "line 3: unterminated quoted field (the quote opens on this line)"))
    }

    @Test("text after a closing quote fails the file instead of being glued into the field")
    func textAfterClosingQuote() throws {
        let error = try #require(try error("a,b\n1,2\n\"x\"y,3\n"))
        #expect(error.kind == .parse)
        #expect(error.message.hasPrefix("line 3: unexpected text after a closing quote"))
    }

    @Test("invalid UTF-8 fails the file as a parse error")
    func invalidUTF8() throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.csv", Data("a,b\n1,".utf8) + Data([0xFF, 0xFE, 0x41]) + Data("\n".utf8))
        let error = try #require(readError { _ = try readAllRows(CSVFileReader(), at: file) })
        #expect(error.kind == .parse)
        #expect(error.message.contains("UTF-8"))
    }

    @Test("an empty file has no rows")
    func emptyFile() throws {
        #expect(try rows("").isEmpty)
        #expect(try rows("a,b\n").isEmpty)
    }

    @Test("empty and repeated header names still keep every cell")
    func headerNames() throws {
        #expect(try rows("a,,a\n1,2,3\n").map(\.fields) == [["a": 1, "column2": 2, "a_2": 3]])
    }

    @Test("cells are typed only when spelled exactly as JSON numbers or booleans", arguments: [
        ("42", JSONValue.int(42)), ("-7", .int(-7)), ("2.50", .double(2.5)), ("1e3", .double(1000)),
        ("true", .bool(true)), ("false", .bool(false)), ("", .null),
        ("01234", .string("01234")), ("+82", .string("+82")), (" 5", .string(" 5")), ("5 ", .string("5 ")),
        (".5", .string(".5")), ("1.", .string("1.")), ("TRUE", .string("TRUE")), ("1,000", .string("1,000")),
        ("2026-11-20", .string("2026-11-20")), ("99999999999999999999", .double(1e20)), ("0x1F", .string("0x1F")),
        ("NaN", .string("NaN")), ("0", .int(0)), ("-0.25", .double(-0.25)), ("12.5e-1", .double(1.25)),
        ("1E2", .double(100)), ("1e400", .string("1e400")), ("-", .string("-")), ("1-2", .string("1-2")),
        ("3 4", .string("3 4")), ("1.5.5", .string("1.5.5")), ("-12:30", .string("-12:30")),
    ])
    func cellTypes(cell: String, expected: JSONValue) {
        #expect(CSVCell.value(of: cell) == expected)
    }

    @Test("cancellation stops reading within one check interval")
    func cancellation() throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.csv", "n\n" + (1...10_000).map(String.init).joined(separator: "\n"))
        let token = CancellationToken()
        var count = 0
        let error = readError {
            try CSVFileReader().readRows(at: file, cancellation: token) { _ in
                count += 1
                if count == 10 { token.cancel() }
            }
        }
        #expect(error == .cancelled)
        #expect(count < 10 + cancellationCheckInterval)
    }
}
