import Domain
import Foundation

/// Splits a CSV file into rows of cells (RFC 4180), reading it in fixed chunks: memory stays at one chunk plus
/// the longest row. Cells are byte ranges of the reader's buffer, valid until the next row is read.
///
/// The rules, which are CSV.swift's (the tests' reference reader):
/// - a row ends at LF, CRLF or a lone CR; the last row needs no line break;
/// - a field that starts with `"` is quoted: it may hold delimiters, line breaks and doubled quotes (`""`), and
///   after its closing quote only a delimiter, a line break or the end of the file may come (anything else is
///   an error here, where CSV.swift glued it into the field); an unterminated one is an error;
/// - a quote inside an unquoted field is kept as text;
/// - a UTF-8 byte-order mark at the start of the file is skipped.
///
/// Not thread-safe: one reader owns it on one queue.
final class CSVRowReader {
    struct Cell {
        var start: Int
        var end: Int
        /// Quoted with a doubled quote inside: `text(of:)` must undouble it.
        var hasEscapedQuote: Bool
    }

    private let window: FileWindow
    private let delimiter: UInt8
    private var start = 0
    private var isFirstChunk = true
    /// The cells of the row last read.
    private(set) var cells: [Cell] = []
    /// The 1-based line the row last read starts on.
    private(set) var rowLine = 0
    private var nextLine = 1
    /// The largest the buffer has been, so tests can check that reading stays bounded.
    var peakBufferSize: Int { window.peakBufferSize }
    private var scratch: [UInt8] = []

    init(input: FileInput, delimiter: UInt8, chunkSize: Int = 256 << 10) {
        self.window = FileWindow(input: input, chunkSize: chunkSize)
        self.delimiter = delimiter
    }

    private enum Outcome {
        case row(next: Int, lineBreaks: Int)
        case needMore
    }

    /// Reads the next row into `cells`; false at the end of the file.
    func nextRow() throws(SourceError) -> Bool {
        while true {
            if isFirstChunk {
                try fill()  // until the byte-order mark check is done
                continue
            }
            if start == window.bytes.count {
                if window.reachedEnd { return false }
                try fill()
                continue
            }
            switch try parseRow() {
            case .row(let next, let lineBreaks):
                start = next
                rowLine = nextLine
                nextLine += 1 + lineBreaks
                return true
            case .needMore:
                try fill()
            }
        }
    }

    /// The bytes of a cell, with doubled quotes undoubled.
    func bytes<T>(of cell: Cell, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let raw = UnsafeBufferPointer(rebasing: window.bytes[cell.start..<cell.end])
        guard cell.hasEscapedQuote else { return body(raw) }
        scratch.removeAll(keepingCapacity: true)
        var afterQuote = false
        for byte in raw {
            if byte == UInt8(ascii: "\""), afterQuote {
                afterQuote = false
                continue
            }
            afterQuote = byte == UInt8(ascii: "\"")
            scratch.append(byte)
        }
        return scratch.withUnsafeBufferPointer(body)
    }

    /// Parses the row at `start` into `cells`, or says the buffer ends before the row does.
    private func parseRow() throws(SourceError) -> Outcome {
        let bytes = window.bytes
        let end = bytes.count, reachedEnd = window.reachedEnd
        let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        var index = start
        var lineBreaks = 0
        // Filled as a local (no exclusivity check per cell), handed back at the end.
        var cells = self.cells
        self.cells = []
        cells.removeAll(keepingCapacity: true)
        defer { self.cells = cells }
        while true {
            if index < end, bytes[index] == quote {
                let opensOn = nextLine + lineBreaks
                var cell = Cell(start: index + 1, end: index + 1, hasEscapedQuote: false)
                index += 1
                while true {
                    guard index < end else {
                        if !reachedEnd { return .needMore }
                        throw SourceError(.parse, "line \(opensOn): unterminated quoted field (the quote opens on this line)")
                    }
                    let byte = bytes[index]
                    if byte == quote {
                        guard index + 1 < end || reachedEnd else { return .needMore }
                        if index + 1 < end, bytes[index + 1] == quote {
                            cell.hasEscapedQuote = true
                            index += 2
                            continue
                        }
                        cell.end = index
                        index += 1
                        break
                    }
                    if byte == newline { lineBreaks += 1 }
                    index += 1
                }
                cells.append(cell)
                guard index < end else {
                    if !reachedEnd { return .needMore }
                    return .row(next: index, lineBreaks: lineBreaks)
                }
                let byte = bytes[index]
                if byte == delimiter {
                    index += 1
                    continue
                }
                if byte != newline, byte != carriageReturn {
                    throw SourceError(.parse, "line \(nextLine + lineBreaks): unexpected text after a closing quote "
                        + "(a quote inside a quoted field must be doubled)")
                }
            } else {
                let cellStart = index
                while index < end {
                    let byte = bytes[index]
                    if byte == delimiter || byte == newline || byte == carriageReturn { break }
                    index += 1
                }
                guard index < end else {
                    if !reachedEnd { return .needMore }
                    cells.append(Cell(start: cellStart, end: index, hasEscapedQuote: false))
                    return .row(next: index, lineBreaks: lineBreaks)
                }
                cells.append(Cell(start: cellStart, end: index, hasEscapedQuote: false))
                if bytes[index] == delimiter {
                    index += 1
                    continue
                }
            }
            // A line break ends the row: LF, CRLF or a lone CR.
            if bytes[index] == carriageReturn {
                guard index + 1 < end || reachedEnd else { return .needMore }
                if index + 1 < end, bytes[index + 1] == newline { index += 1 }
            }
            return .row(next: index + 1, lineBreaks: lineBreaks)
        }
    }

    /// Reads more after the unfinished row; skips a byte-order mark at the start of the file.
    private func fill() throws(SourceError) {
        try window.refill(dropping: start)
        start = 0
        if isFirstChunk, window.bytes.count >= 3 || window.reachedEnd {
            isFirstChunk = false
            start = window.byteOrderMarkLength
        }
    }
}
