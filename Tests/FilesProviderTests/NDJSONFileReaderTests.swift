import Domain
import Foundation
import ProviderTesting
import Testing

@testable import FilesProvider

@Suite("NDJSON reader")
struct NDJSONFileReaderTests {
    /// Each behaviour on both paths: a file read on the caller's thread alone, and one given a parsing thread.
    static let pipelinedSizes = [Int.max, 0]

    @Test("each non-blank line is a row with its own line number", arguments: Self.pipelinedSizes)
    func rows(pipelinedSize: Int) throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.ndjson", "{\"n\":1}\n\n   \n{\"n\":2}\r\n{\"n\":3}")
        let rows = try readAllRows(NDJSONFileReader(pipelinedSize: pipelinedSize), at: file)
        #expect(rows.map(\.fields) == [["n": 1], ["n": 2], ["n": 3]])
        #expect(rows.map(\.line) == [1, 4, 5])
    }

    @Test("a bad line fails the file with its line number, without crashing", arguments: Self.pipelinedSizes)
    func badLine(pipelinedSize: Int) throws {
        let directory = try ScratchDirectory.Folder("files")
        var text = ""
        for index in 1...16 { text += "{\"n\":\(index)}\n" }
        text += "{\"n\": 17,,}\n{\"n\":18}\n"
        let file = try directory.write("data.ndjson", text)
        let error = try #require(readError { _ = try readAllRows(NDJSONFileReader(pipelinedSize: pipelinedSize), at: file) })
        #expect(error.kind == .parse)
        #expect(error.message.hasPrefix("line 17: invalid JSON: "))
    }

    @Test("a line that is valid JSON but not an object is refused", arguments: Self.pipelinedSizes)
    func notAnObject(pipelinedSize: Int) throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.ndjson", "{\"n\":1}\n[1,2]\n")
        let error = try #require(readError { _ = try readAllRows(NDJSONFileReader(pipelinedSize: pipelinedSize), at: file) })
        #expect(error == SourceError(.parse, "line 2: expected each line to be a JSON object, found an array"))
    }

    @Test("a byte-order mark and a missing final newline are tolerated", arguments: Self.pipelinedSizes)
    func byteOrderMark(pipelinedSize: Int) throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.ndjson", Data([0xEF, 0xBB, 0xBF]) + Data("{\"n\":1}\n{\"n\":2}".utf8))
        #expect(try readAllRows(NDJSONFileReader(pipelinedSize: pipelinedSize), at: file).map(\.fields) == [["n": 1], ["n": 2]])
    }

    @Test("lines longer than the read chunk are reassembled", arguments: Self.pipelinedSizes)
    func longLines(pipelinedSize: Int) throws {
        let directory = try ScratchDirectory.Folder("files")
        let long = String(repeating: "x", count: 700_000)
        let file = try directory.write("a.ndjson", "{\"s\":\"\(long)\"}\n{\"s\":\"short\"}\n")
        let rows = try readAllRows(NDJSONFileReader(pipelinedSize: pipelinedSize), at: file)
        #expect(rows.map { $0.fields["s"]?.stringValue?.count } == [700_000, 5])
    }

    @Test("a large file streams through a bounded buffer, one row at a time")
    func largeFileStreams() async throws {
        let directory = try ScratchDirectory.Folder("files")
        // Seconds of parsing in a debug build: on a thread of its own, not the shared pool.
        let run = try await blocking { try Self.streamLargeFile(lines: 200_000, in: directory) }
        #expect(run.fileSize > 10_000_000)
        #expect(run.count == 200_000)
        #expect(run.lastID == .int(200_000))
        // The reader never held more than one chunk: the file is over 40 times that.
        #expect(run.peakBuffer <= 256 << 10)
        #expect(run.peakBuffer * 40 < run.fileSize)
    }

    /// Writes `lines` rows to a file and reads them back, keeping only counts.
    static func streamLargeFile(lines lineCount: Int, in directory: ScratchDirectory.Folder) throws
        -> (fileSize: Int, count: Int, lastID: JSONValue?, peakBuffer: Int) {
        var text = ""
        text.reserveCapacity(lineCount * 80)
        for index in 1...lineCount {
            text += "{\"id\":\(index),\"title\":\"Item number \(index)\",\"tags\":[\"a\",\"b\"],\"score\":\(Double(index) / 8)}\n"
        }
        let file = try directory.write("big.ndjson", text)
        let fileSize = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        var count = 0
        var lastID: JSONValue?
        var peakBuffer = 0
        try NDJSONFileReader().readLines(
            at: file, cancellation: CancellationToken(),
            row: { row in
                count += 1
                lastID = row.fields["id"]
            },
            finished: { peakBuffer = $0 })
        return (fileSize, count, lastID, peakBuffer)
    }

    @Test("cancellation stops reading within one check interval", arguments: Self.pipelinedSizes)
    func cancellation(pipelinedSize: Int) throws {
        let directory = try ScratchDirectory.Folder("files")
        let text = (1...10_000).map { "{\"n\":\($0)}" }.joined(separator: "\n")
        let file = try directory.write("a.ndjson", text)
        let token = CancellationToken()
        var count = 0
        let error = readError {
            try NDJSONFileReader(pipelinedSize: pipelinedSize).readRows(at: file, cancellation: token) { _ in
                count += 1
                if count == 10 { token.cancel() }
            }
        }
        #expect(error == .cancelled)
        #expect(count < 10 + cancellationCheckInterval)
    }

    @Test("a row the caller refuses stops the read with the caller's error, the rows after it unread", arguments: Self.pipelinedSizes)
    func callerError(pipelinedSize: Int) throws {
        let directory = try ScratchDirectory.Folder("files")
        let file = try directory.write("a.ndjson", (1...10_000).map { "{\"n\":\($0)}" }.joined(separator: "\n"))
        var seen: [JSONValue?] = []
        let refused = SourceError(.parse, "line 5: not a record")
        let error = readError {
            try NDJSONFileReader(pipelinedSize: pipelinedSize).readRows(at: file, cancellation: CancellationToken()) { (row) throws(SourceError) in
                seen.append(row.fields["n"])
                if seen.count == 5 { throw refused }
            }
        }
        #expect(error == refused)
        #expect(seen == (1...5).map { .int($0) })
    }
}
