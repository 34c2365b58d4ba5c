import Domain
import Foundation

/// CSV with a header row (`.csv`), read as the bytes stream in by `CSVRowReader`.
///
/// Rows must have as many fields as the header; quoted fields may hold delimiters, doubled quotes and line
/// breaks. Blank lines are skipped. An unterminated quote, text after a closing quote, a wrong field count
/// or invalid UTF-8 fails the file with the line the row starts on. Cell values are typed by `CSVCell`.
///
/// It reads what CSV.swift's reader reads (the tests' reference); why it is not that library: BENCHMARKS.md, "CSV".
public struct CSVFileReader: RecordFileReader {
    public let format = "csv"
    public let fileExtensions = ["csv"]
    private let delimiter: UInt8
    private let chunkSize: Int

    /// - Parameter delimiter: one ASCII character other than a quote or a line break (`,` `;` `\t` `|`).
    public init(delimiter: UInt8 = UInt8(ascii: ",")) {
        self.init(delimiter: delimiter, chunkSize: 256 << 10)
    }

    /// - Parameter chunkSize: the first read's size (tests use tiny ones so rows straddle every boundary).
    init(delimiter: UInt8, chunkSize: Int) {
        self.delimiter = delimiter
        self.chunkSize = chunkSize
    }

    public func readRows(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void
    ) throws(SourceError) {
        let reader = CSVRowReader(input: try FileInput(url: url), delimiter: delimiter, chunkSize: chunkSize)
        guard try reader.nextRow() else { return }  // an empty file has no rows
        var names: [String] = []
        for cell in reader.cells {
            guard let name = reader.bytes(of: cell, CSVCell.text) else {
                throw SourceError(.parse, "line \(reader.rowLine): not valid UTF-8 text")
            }
            names.append(name)
        }
        let header = Self.columnNames(names)
        // Every row has the header's keys: a row's fields start as a copy of one object made here (its members
        // sorted once), and its values are set by position, so no key is compared or sorted per row.
        let template = JSONObject(members: header.map { ($0, JSONValue.null) })
        let slots = header.map { template.index(forKey: $0)! }
        var count = 0
        while try reader.nextRow() {
            count += 1
            if count % cancellationCheckInterval == 0, cancellation.isCancelled { throw .cancelled }
            let cells = reader.cells
            if cells.count == 1, cells[0].start == cells[0].end { continue }  // a blank line
            guard cells.count == header.count else {
                throw SourceError(.parse, "line \(reader.rowLine): expected \(header.count) fields as in the header, found \(cells.count)")
            }
            var values = template
            for (slot, cell) in zip(slots, cells) {
                guard let value = reader.bytes(of: cell, CSVCell.value(of:)) else {
                    throw SourceError(.parse, "line \(reader.rowLine): not valid UTF-8 text")
                }
                values.replaceValue(at: slot, with: value)
            }
            try row(FileRow(fields: values, line: reader.rowLine))
        }
    }

    /// Header names as field keys: an empty name becomes `columnN`, a repeated one `name_2`, so no cell is lost.
    static func columnNames(_ header: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return header.enumerated().map { index, raw in
            let name = raw.isEmpty ? "column\(index + 1)" : raw
            let occurrence = (seen[name] ?? 0) + 1
            seen[name] = occurrence
            return occurrence == 1 ? name : "\(name)_\(occurrence)"
        }
    }
}
