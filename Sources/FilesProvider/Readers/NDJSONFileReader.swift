import Domain
import Foundation

/// Newline-delimited JSON (`.ndjson`, `.jsonl`): one object per line, streamed in fixed-size chunks.
/// Blank lines are skipped; any other line that is not a JSON object fails the file with its line number.
public struct NDJSONFileReader: RecordFileReader {
    public let format = "ndjson"
    public let fileExtensions = ["ndjson", "jsonl"]

    public init() {}

    public func readRows(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void
    ) throws(SourceError) {
        try readLines(at: url, cancellation: cancellation, row: row) { _ in }
    }

    /// The same, also handing back the line reader when done so tests can check its buffer stayed bounded.
    func readLines(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void,
        finished: (LineReader) -> Void
    ) throws(SourceError) {
        let lines = LineReader(input: try FileInput(url: url))
        let workspace = JSONParser.Workspace()
        while let line = try lines.nextLine() {
            let number = lines.lineNumber
            if number % cancellationCheckInterval == 0, cancellation.isCancelled { throw .cancelled }
            if Self.isBlank(line) { continue }
            let value: JSONValue
            do throws(JSONParser.Failure) {
                value = try JSONParser.parse(line, workspace: workspace)
            } catch {
                throw SourceError(.parse, "line \(number): invalid JSON: \(error.message) (column \(error.column))")
            }
            try row(try objectRow(value, line: number, what: "each line"))
        }
        finished(lines)
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
