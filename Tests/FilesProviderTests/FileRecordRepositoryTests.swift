import Domain
import FilesProvider
import Foundation
import ProviderKit
import ProviderTesting
import Synchronization
import Testing

@Suite("File record repository")
struct FileRecordRepositoryTests {
    @Test("the shipped sample data reads as records of all three formats, detected by extension")
    func sampleData() async throws {
        let directory = try ScratchDirectory.Folder("files")
        for name in ["notes.json", "tasks.csv", "events.ndjson"] {
            try directory.copyFixture(name, to: "Examples/data/\(name)")
        }
        let report = try await SourceRunner.run(
            ["paths": ["Examples/data/*.json", "Examples/data/*.csv", "Examples/data/*.ndjson"]], in: directory.url)
        #expect(report.status == .ok)
        #expect(report.warnings.isEmpty)
        #expect(report.items.map(\.id) == [
            "note-1", "note-2", "note-3", "T-101", "T-102", "T-103", "T-104", "evt-1", "evt-2", "evt-3", "evt-4",
        ])
        #expect(report.items.allSatisfy { $0.kind == .record })
        #expect(report.items[1].url == URL(string: "https://en.wikipedia.org/wiki/Gangneung"))
        #expect(report.items[4].title == "Book train: Seoul → Busan, Friday")
        #expect(report.items[7].title == "Team standup")
        #expect(report.items[7].date == ISO8601.date(from: "2026-11-24T00:00:00Z"))
        #expect(report.items[9].url == URL(string: "https://www.swift.org/blog/"))
    }

    @Test("globs across several files read in pattern order, each pattern's matches sorted, no file twice")
    func globOrder() async throws {
        let directory = try ScratchDirectory.Folder("files")
        for name in ["b.ndjson", "a.ndjson", "c.ndjson"] {
            try directory.write("data/\(name)", "{\"title\":\"\(name)\"}\n")
        }
        try directory.write("data/z.csv", "title\nz.csv\n")
        try directory.write("data/nested/d.ndjson", "{\"title\":\"nested\"}\n")
        let report = try await SourceRunner.run(
            ["paths": ["data/*.csv", "data/*.ndjson", "data/a.ndjson", "data/*/*.ndjson"]], in: directory.url)
        #expect(report.status == .ok)
        #expect(report.items.map(\.title) == ["z.csv", "a.ndjson", "b.ndjson", "c.ndjson", "nested"])
        #expect(report.items.map(\.id) == [
            "data/z.csv:2", "data/a.ndjson:1", "data/b.ndjson:1", "data/c.ndjson:1", "data/nested/d.ndjson:1",
        ])
    }

    @Test("units are the paths as written relative to the manifest's directory")
    func unitNames() throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("data/a.csv", "x\n1\n")
        let repository = FileRecordRepository(
            patterns: [directory.url.appendingPathComponent("./data/../data/*.csv").standardizedFileURL,
                       URL(fileURLWithPath: "/nonexistent-dir/*.csv")],
            baseDirectory: directory.url, format: nil, readers: [CSVFileReader()], mapping: FieldMapping())
        #expect(try repository.recordUnits().get() == ["data/a.csv", "/nonexistent-dir/*.csv"])
    }

    @Test("a missing file is notFound with the file as written")
    func missingFile() async throws {
        let directory = try ScratchDirectory.Folder("files")
        let report = try await SourceRunner.run(["paths": ["Examples/data/x.csv"]], in: directory.url)
        #expect(report.status == .error)
        #expect(report.error == SourceError(.notFound, "Examples/data/x.csv: no such file"))
    }

    @Test("a pattern that matches nothing is notFound with the pattern, and only a warning beside good files")
    func emptyGlob() async throws {
        let directory = try ScratchDirectory.Folder("files")
        let alone = try await SourceRunner.run(["paths": ["logs/*.ndjson"]], in: directory.url)
        #expect(alone.status == .error)
        #expect(alone.error == SourceError(.notFound, "logs/*.ndjson: no file matches this pattern"))

        try directory.write("a.ndjson", "{\"id\":1}\n")
        let mixed = try await SourceRunner.run(["paths": ["logs/*.ndjson", "*.ndjson"]], in: directory.url)
        #expect(mixed.status == .ok)
        #expect(mixed.items.map(\.id) == ["1"])
        #expect(mixed.warnings == ["logs/*.ndjson: notFound: no file matches this pattern"])
    }

    @Test("a directory where a file should be is an io error, not a crash")
    func directoryIsNotAFile() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("data.csv"), withIntermediateDirectories: true)
        let report = try await SourceRunner.run(["paths": ["data.csv"]], in: directory.url)
        #expect(report.error == SourceError(.io, "data.csv: is a directory, not a file"))
    }

    @Test("an unreadable file is an io error", .enabled(if: geteuid() != 0, "root reads any file"))
    func unreadableFile() async throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("secret.csv", "a\n1\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        let report = try await SourceRunner.run(["paths": ["secret.csv"]], in: directory.url)
        #expect(report.error == SourceError(.io, "secret.csv: permission denied"))
    }

    @Test("one bad file among good ones leaves the source ok with a warning naming file and line, keeping its rows read before the bad one")
    func oneBadFile() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("data/1.ndjson", "{\"id\":\"a\"}\n")
        try directory.write("data/2.ndjson", "{\"id\":\"b\"}\n{\"id\":\"c\"}\n{oops}\n")
        try directory.write("data/3.ndjson", "{\"id\":\"d\"}\n")
        let report = try await SourceRunner.run(["paths": ["data/*.ndjson"]], in: directory.url)
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["a", "b", "c", "d"])
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.hasPrefix("data/2.ndjson: parse: line 3: invalid JSON: ") == true)
    }

    @Test("when every file is bad the source fails with each problem")
    func allBad() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("a.csv", "x,y\n1\n")
        try directory.write("b.csv", "x,y\n1,2,3\n")
        let report = try await SourceRunner.run(["paths": ["*.csv"]], in: directory.url)
        #expect(report.status == .error)
        #expect(report.error == SourceError(.parse,
            "all 2 requests failed: a.csv: line 2: expected 2 fields as in the header, found 1; "
            + "b.csv: line 2: expected 2 fields as in the header, found 3"))
    }

    @Test("an explicit format reads files whatever their extension")
    func explicitFormat() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("export.txt", "{\"title\":\"one\"}\n{\"title\":\"two\"}\n")
        let report = try await SourceRunner.run(["paths": ["*.txt"], "format": "ndjson"], in: directory.url)
        #expect(report.items.map(\.title) == ["one", "two"])

        let auto = try await SourceRunner.run(["paths": ["*.txt"]], in: directory.url)
        #expect(auto.error == SourceError(.configuration,
            "export.txt: cannot tell the format of '.txt' files; set \"format\" to one of json, ndjson, csv"))
    }

    @Test("auto detection is case-insensitive and knows .jsonl")
    func autoDetection() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("A.JSON", "[{\"title\":\"json\"}]")
        try directory.write("B.jsonl", "{\"title\":\"jsonl\"}\n")
        try directory.write("C.Csv", "title\ncsv\n")
        let report = try await SourceRunner.run(["paths": ["*"]], in: directory.url)
        #expect(report.items.map(\.title) == ["json", "jsonl", "csv"])
    }

    @Test("the CSV delimiter and the field mapping options apply")
    func delimiterAndMapping() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("people.csv", "code;fullName;joined\n007;\"Bond; James\";2026-11-20T08:00:00Z\n")
        let report = try await SourceRunner.run(
            ["paths": ["people.csv"], "delimiter": ";", "fields": ["id": "code", "title": "fullName", "date": "joined"]],
            in: directory.url)
        let item = try #require(report.items.first)
        #expect(item.id == "007")
        #expect(item.title == "Bond; James")
        #expect(item.date == ISO8601.date(from: "2026-11-20T08:00:00Z"))
        #expect(item.fields["code"] == "007")
    }

    @Test("a recorded GitHub issues page maps to records with a field mapping")
    func gitHubFixture() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.copyFixture("github-issues.json", to: "issues.json")
        let report = try await SourceRunner.run(
            ["paths": ["issues.json"], "fields": ["id": "number", "url": "html_url", "date": "created_at"]],
            in: directory.url)
        #expect(report.items.map(\.id) == ["13", "12", "11"])
        #expect(report.items.map(\.title) == ["Test issue 13", "Test issue 12", "Test issue 11"])
        #expect(report.items[0].date == ISO8601.date(from: "2022-07-19T04:39:16Z"))
        #expect(report.items[0].url?.host == "github.com")
    }

    @Test("a cancelled read stops and reports cancellation instead of records")
    func cancelledRead() async throws {
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("a.ndjson", (1...5_000).map { "{\"n\":\($0)}" }.joined(separator: "\n"))
        let repository = FileRecordRepository(
            patterns: [directory.url.appendingPathComponent("a.ndjson")], baseDirectory: directory.url,
            format: nil, readers: [NDJSONFileReader()], mapping: FieldMapping())
        let token = CancellationToken()
        token.cancel()
        let delivered = Mutex(0)
        let error = await withCheckedContinuation { continuation in
            repository.streamRecords(
                in: "a.ndjson", cancellation: token, onRecords: { records in delivered.withLock { $0 += records.count } },
                completion: { continuation.resume(returning: $0) })
        }
        #expect(error == SourceError.cancelled)
        #expect(delivered.withLock { $0 } == 0, "no records instead of records")
    }

    @Test("an extra reader plugs in by extension and by format name")
    func extraReader() async throws {
        struct LinesReader: RecordFileReader {
            let format = "lines"
            let fileExtensions = ["txt"]
            func readRows(
                at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void
            ) throws(SourceError) {
                guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                    throw SourceError(.io, "cannot read")
                }
                for (index, line) in text.split(separator: "\n").enumerated() {
                    try row(FileRow(fields: ["title": .string(String(line))], line: index + 1))
                }
            }
        }
        let directory = try ScratchDirectory.Folder("files")
        try directory.write("list.txt", "milk\neggs\n")
        try directory.write("list.log", "bread\n")
        let provider = FilesProvider(additionalReaders: [LinesReader()])
        let auto = try await SourceRunner.run(["paths": ["list.txt"]], in: directory.url, provider: provider)
        #expect(auto.items.map(\.title) == ["milk", "eggs"])
        let named = try await SourceRunner.run(["paths": ["list.log"], "format": "lines"], in: directory.url, provider: provider)
        #expect(named.items.map(\.title) == ["bread"])
    }
}
