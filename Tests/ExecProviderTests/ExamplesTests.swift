import Domain
import ExecProvider
import Foundation
import ProviderTesting
import Testing

@Suite("Shipped exec examples")
struct ExamplesTests {
    @Test("the examples are executable")
    func executable() {
        for name in ["word_counts.py", "list_files.sh"] {
            #expect(FileManager.default.isExecutableFile(atPath: examplesDirectory.appendingPathComponent(name).path))
        }
    }

    @Test("word_counts.py turns its options into items, most frequent word first")
    func wordCounts() async throws {
        let report = await run(try makeSource(
            ["command": ["./word_counts.py"], "config": ["text": "the cat and the hat and the bat", "top": 2]],
            in: examplesDirectory, id: "words"))
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["the", "and"])
        #expect(report.items.first?.subtitle == "3 occurrences")
        #expect(report.items.first?.fields == ["count": 3, "rank": 1, "source": "words"])
    }

    @Test("word_counts.py reports a missing file through its stderr and exit status")
    func wordCountsMissingFile() async throws {
        let report = await run(try makeSource(
            ["command": ["python3", "word_counts.py"], "config": ["path": "no-such-notes.txt"]], in: examplesDirectory))
        #expect(report.status == .error)
        #expect(report.error?.kind == .io)
        #expect(report.error?.message == "'python3' exited with status 1: cannot read no-such-notes.txt: No such file or directory")
    }

    @Test("list_files.sh speaks Singer: one record per file, keyed by path")
    func listFiles() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        try Data("hello\n".utf8).write(to: scripts.url.appendingPathComponent("a.txt"))
        try Data("{}".utf8).write(to: scripts.url.appendingPathComponent("quote\"d.json"))
        let logs = LogCapture()
        let report = await run(try makeSource(
            ["command": [.string(examplesDirectory.appendingPathComponent("list_files.sh").path)],
             "args": [.string(scripts.url.path)]],
            in: examplesDirectory, logger: logs.logger()))
        #expect(report.status == .ok)
        #expect(report.items.map(\.title) == ["a.txt", "quote\"d.json"])
        #expect(report.items.first?.id == "files/\(scripts.url.path)/a.txt")
        #expect(report.items.first?.fields["bytes"] == 6)
        #expect(report.items.allSatisfy { $0.kind == .record && $0.subtitle == "files" })
        #expect(logs.messages(at: .info).contains("ignored 1 Singer STATE message(s)"))
    }
}
