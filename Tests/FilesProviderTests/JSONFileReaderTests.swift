import Domain
import Foundation
import ProviderTesting
import Testing

@testable import FilesProvider

@Suite("JSON document reader")
struct JSONFileReaderTests {
    @Test("an array of objects gives one row per element, with the line it starts on")
    func array() throws {
        let rows = try readAllRows(JSONFileReader(), at: try fixtureURL("notes.json"))
        #expect(rows.map { $0.fields["id"] } == ["note-1", "note-2", "note-3"])
        #expect(rows.map(\.line) == [2, 9, 17])
        #expect(rows[0].fields["tags"] == ["errand", "photo"])
    }

    @Test("an object with a single array member reads that array")
    func singleArrayMember() throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.json", #"{"generated": "today", "notes": [{"n": 1}, {"n": 2}]}"#)
        #expect(try readAllRows(JSONFileReader(), at: file).map(\.fields) == [["n": 1], ["n": 2]])
    }

    @Test("an envelope with several arrays reads its items/data/records/results member")
    func envelope() throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write(
            "a.json", #"{"page": 1, "warnings": ["x"], "results": [{"n": 1}], "facets": [1]}"#)
        #expect(try readAllRows(JSONFileReader(), at: file).map(\.fields) == [["n": 1]])
    }

    @Test("shapes without an obvious array are refused with what was found", arguments: [
        (#"{"a": [1], "b": [2]}"#, "found an object with array members a, b"),
        (#"{"a": 1}"#, "found an object with no array member"),
        (#""text""#, "found a string"),
        (#"[{"n": 1}, 2]"#, "line 1: expected each array element to be a JSON object, found an integer"),
        (#"{"items": [{"n": 1}, "x"]}"#, "items[1]: expected a JSON object, found a string"),
        ("[\n{\"n\": 1},\n{\"n\": }\n]", "line 3: invalid JSON: unexpected '}', expected a value (column 7)"),
    ])
    func refusedShapes(text: String, expected: String) throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.json", text)
        let error = try #require(readError { _ = try readAllRows(JSONFileReader(), at: file) })
        #expect(error.kind == .parse)
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test("a recorded GitHub issues page reads as records")
    func recordedGitHubPage() throws {
        let rows = try readAllRows(JSONFileReader(), at: try fixtureURL("github-issues.json"))
        #expect(rows.map { $0.fields["number"] } == [13, 12, 11])
        #expect(rows[0].fields["user"]?["login"] == "octokit-fixture-user-a")
    }

    @Test("an empty array is no rows, not an error")
    func emptyArray() throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.json", " [ ] \n")
        #expect(try readAllRows(JSONFileReader(), at: file).isEmpty)
    }
}
