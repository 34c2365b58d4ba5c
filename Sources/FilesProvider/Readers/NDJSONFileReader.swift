import Domain
import Foundation

/// Newline-delimited JSON (`.ndjson`, `.jsonl`): one object per line, streamed in fixed-size chunks.
/// Blank lines are skipped; any other line that is not a JSON object fails the file with its line number.
///
/// A large file is read in two stages on two threads: a thread of the reader's own reads and parses the lines,
/// and the caller's thread maps the parsed rows (`row`) as batches of them arrive through an `OrderedHandoff`.
/// A small file is read on the caller's thread alone. Why two stages, and where the threshold lies: BENCHMARKS.md,
/// "Round five".
public struct NDJSONFileReader: RecordFileReader {
    public let format = "ndjson"
    public let fileExtensions = ["ndjson", "jsonl"]

    /// Rows per batch between the parsing thread and the caller.
    static let batchSize = 256
    /// Batches parsed ahead of the caller before the parsing thread waits: a few hundred KiB of rows at most.
    static let batchesAhead = 4
    /// Files at least this large get a parsing thread.
    let pipelinedSize: Int

    public init() {
        self.init(pipelinedSize: 4 << 20)
    }

    /// `pipelinedSize`: 0 gives every file a parsing thread, `Int.max` none (the tests read each way).
    init(pipelinedSize: Int) {
        self.pipelinedSize = pipelinedSize
    }

    public func readRows(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void
    ) throws(SourceError) {
        try readLines(at: url, cancellation: cancellation, row: row) { _ in }
    }

    /// What the parsing thread hands over, in file order.
    private enum Parsed: Sendable {
        case rows([FileRow])
        case failed(SourceError)
        /// Every line was read; the line reader's largest buffer, for the tests.
        case end(peakBufferSize: Int)
    }

    /// The same, also telling the line reader's largest buffer when done so tests can check it stayed bounded.
    func readLines(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void,
        finished: (_ peakBufferSize: Int) -> Void
    ) throws(SourceError) {
        guard Self.size(of: url) >= pipelinedSize else {
            return try readInline(at: url, cancellation: cancellation, row: row, finished: finished)
        }
        let handoff = OrderedHandoff<Parsed>(producers: 1, capacity: Self.batchesAhead)
        // Stops the parsing thread when the caller stops taking (a mapping error, cancellation).
        let stop = CancellationToken()
        let parsing = Thread {
            Self.parse(url, cancellation: cancellation, stop: stop) { handoff.push($0, from: 0) }
            handoff.finish(0)
        }
        parsing.name = "aggregate.files.parse"
        parsing.start()
        defer {
            stop.cancel()
            handoff.cancel()
        }
        while let (_, parsed, _) = handoff.next() {
            switch parsed {
            case .rows(let rows):
                if cancellation.isCancelled { throw .cancelled }
                for parsedRow in rows { try row(parsedRow) }
            case .failed(let error):
                throw error
            case .end(let peakBufferSize):
                finished(peakBufferSize)
            }
        }
        if cancellation.isCancelled { throw .cancelled }
    }

    /// Reads and parses every line of `url`, handing the rows over in batches, then `.end`, or `.failed` at the
    /// first line that is not a JSON object (after the rows before it).
    private static func parse(
        _ url: URL, cancellation: CancellationToken, stop: CancellationToken, push: (Parsed) -> Void
    ) {
        var batch: [FileRow] = []
        batch.reserveCapacity(batchSize)
        do throws(SourceError) {
            let lines = LineReader(input: try FileInput(url: url))
            let workspace = JSONParser.Workspace()
            while let line = try lines.nextLine() {
                let number = lines.lineNumber
                if number % cancellationCheckInterval == 0, cancellation.isCancelled || stop.isCancelled {
                    throw .cancelled
                }
                guard let parsed = try parse(line, number: number, workspace: workspace) else { continue }
                batch.append(parsed)
                if batch.count == batchSize {
                    push(.rows(batch))
                    batch = []
                    batch.reserveCapacity(batchSize)
                }
            }
            if !batch.isEmpty { push(.rows(batch)) }
            push(.end(peakBufferSize: lines.peakBufferSize))
        } catch {
            if !batch.isEmpty { push(.rows(batch)) }
            push(.failed(error))
        }
    }

    /// Small files: every line read, parsed and mapped on the caller's thread.
    private func readInline(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void,
        finished: (_ peakBufferSize: Int) -> Void
    ) throws(SourceError) {
        let lines = LineReader(input: try FileInput(url: url))
        let workspace = JSONParser.Workspace()
        while let line = try lines.nextLine() {
            let number = lines.lineNumber
            if number % cancellationCheckInterval == 0, cancellation.isCancelled { throw .cancelled }
            if let parsed = try Self.parse(line, number: number, workspace: workspace) { try row(parsed) }
        }
        finished(lines.peakBufferSize)
    }

    /// One line's row; nil for a blank line.
    private static func parse(
        _ line: UnsafeBufferPointer<UInt8>, number: Int, workspace: JSONParser.Workspace
    ) throws(SourceError) -> FileRow? {
        if isBlank(line) { return nil }
        let value: JSONValue
        do throws(JSONParser.Failure) {
            value = try JSONParser.parse(line, workspace: workspace)
        } catch {
            throw SourceError(.parse, "line \(number): invalid JSON: \(error.message) (column \(error.column))")
        }
        return try objectRow(value, line: number, what: "each line")
    }

    /// The file's size in bytes; 0 when it cannot be told (the read then reports why) or for a pipe.
    private static func size(of url: URL) -> Int {
        var status = stat()
        guard stat(url.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return Int(status.st_size)
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
