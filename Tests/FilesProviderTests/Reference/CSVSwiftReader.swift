import CSV
import Domain
import Foundation

@testable import FilesProvider

/// The CSV reader before issue 20, on CSV.swift, kept as the reference `CSVFileReader` must agree with
/// (`CSVGoldenTests`).
///
/// Rows must have as many fields as the header; quoted fields may hold delimiters, doubled quotes and line
/// breaks. Blank lines are skipped. An unterminated quote, text after a closing quote, a wrong field count
/// or invalid UTF-8 fails the file with the line the row starts on. Cell values are typed by `CSVCell`.
struct CSVSwiftReader: RecordFileReader {
    let format = "csv"
    let fileExtensions = ["csv"]
    private let delimiter: UInt8

    /// - Parameter delimiter: one ASCII character other than a quote or a line break (`,` `;` `\t` `|`).
    init(delimiter: UInt8 = UInt8(ascii: ",")) {
        self.delimiter = delimiter
    }

    func readRows(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void
    ) throws(SourceError) {
        let stream = CSVInputStream(input: try FileInput(url: url), delimiter: delimiter)
        let reader: CSVReader
        do {
            reader = try CSVReader(stream: stream, hasHeaderRow: true, delimiter: Unicode.Scalar(delimiter))
        } catch {
            if let readError = stream.readError { throw readError }
            return  // CSVError.cannotReadHeaderRow: an empty file has no rows
        }
        let header = CSVFileReader.columnNames(reader.headerRow ?? [])
        var line = 2 + Self.lineBreaks(in: reader.headerRow ?? [])  // the line after the header
        var count = 0

        while let fields = reader.next() {
            let rowLine = line
            line += 1 + Self.lineBreaks(in: fields)
            // A structural problem found by the stream at or before this row makes this row unreliable.
            if let problem = stream.problem, problem.line <= rowLine {
                throw SourceError(.parse, "line \(problem.line): \(problem.message)")
            }
            count += 1
            if count % cancellationCheckInterval == 0, cancellation.isCancelled { throw .cancelled }
            if fields.count == 1, fields[0].isEmpty { continue }  // a blank line
            guard fields.count == header.count else {
                throw SourceError(.parse, "line \(rowLine): expected \(header.count) fields as in the header, found \(fields.count)")
            }
            let values = JSONObject(members: zip(header, fields).map { ($0, CSVCell.value(of: $1)) })
            try row(FileRow(fields: values, line: rowLine))
        }
        if let readError = stream.readError { throw readError }
        if let problem = stream.problem { throw SourceError(.parse, "line \(problem.line): \(problem.message)") }
        if reader.error != nil {
            throw SourceError(.parse, "line \(line): not valid UTF-8 text")
        }
    }

    private static func lineBreaks(in fields: [String]) -> Int {
        var count = 0
        for field in fields where field.utf8.contains(0x0A) {
            count += field.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        return count
    }
}
