import Domain
import FilesProvider
import Foundation
import ProviderTesting
import Testing

/// A reader for a made-up format whose files start with `%TAB`: one row per line after the first.
private struct TabletReader: RecordFileReader {
    var format: String { "tablet" }
    var fileExtensions: [String] { ["tab"] }

    func recognizes(leadingBytes: [UInt8]) -> Bool { leadingBytes.starts(with: Array("%TAB".utf8)) }

    func readRows(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void
    ) throws(SourceError) {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw SourceError(.io, "unreadable") }
        for (index, line) in text.split(separator: "\n").dropFirst().enumerated() {
            try row(FileRow(fields: ["title": .string(String(line))], line: index + 2))
        }
    }
}

@Suite("Files recognised by their content")
struct ContentSniffingTests {
    let provider = FilesProvider(additionalReaders: [TabletReader()])

    @Test("content a reader recognises is read by it whatever the file is called, even with no extension", arguments: [
        "data/notes", "data/notes.txt", "data/notes.php", "data/notes.csv",
    ])
    func recognisedWhateverTheName(path: String) async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write(path, "%TAB\nfirst\nsecond\n")
        let report = try await SourceRunner.run(["paths": [.string(path)]], in: directory.url, provider: provider)
        #expect(report.status == .ok, "\(report.error?.description ?? "")")
        #expect(report.items.map(\.title) == ["first", "second"])
    }

    @Test("content no reader recognises is still read by its extension")
    func extensionOtherwise() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("a.csv", "title\ncsv row\n")
        try directory.write("b.json", "[{\"title\": \"json row\"}]")
        let report = try await SourceRunner.run(["paths": ["a.csv", "b.json"]], in: directory.url, provider: provider)
        #expect(report.items.map(\.title) == ["csv row", "json row"])
    }

    @Test("an explicit format is not second-guessed by the content")
    func explicitFormatWins() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("odd.csv", "%TAB\nfirst\n")
        let report = try await SourceRunner.run(["paths": ["odd.csv"], "format": "csv"], in: directory.url, provider: provider)
        #expect(report.items.map { $0.fields["%TAB"] } == ["first"])
    }

    @Test("a file without an extension that nobody recognises is still a configuration error")
    func unknownContent() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("README", "just words\n")
        let report = try await SourceRunner.run(["paths": ["README"]], in: directory.url, provider: provider)
        #expect(report.error == SourceError(.configuration,
            "README: cannot tell the format of a file without an extension; set \"format\" to one of json, ndjson, csv, tablet"))
    }
}
