import Domain
import Foundation

@testable import FilesProvider

/// The byte stream CSV.swift reads, straight from the file, with a quote-state check riding along.
///
/// CSV.swift parses leniently: an unterminated quoted field silently runs to the end of the file and a
/// character after a closing quote is glued into the field. Both are corrupt data we must report with a line
/// number, so this stream follows the RFC 4180 quote states over the same bytes (it does not split fields:
/// CSV.swift does) and records the first such problem.
///
/// Used by one `CSVReader` on one thread, never shared.
final class CSVInputStream: InputStream {
    private enum QuoteState {
        case fieldStart, unquoted, quoted, quoteInQuoted
    }

    private let input: FileInput
    private let delimiter: UInt8
    private var status: Stream.Status = .notOpen
    private var state = QuoteState.fieldStart
    private var line = 1
    private var quoteStartLine = 1
    /// Bytes read from the file but not yet handed to CSV.swift. Kept here so `hasBytesAvailable` can be
    /// exact: CSV.swift treats "available but read 0 bytes" as a read error.
    private let chunk: UnsafeMutableRawBufferPointer
    private var chunkStart = 0
    private var chunkEnd = 0
    private var atEnd = false
    /// The first structural problem found: an unterminated quote, text after a closing quote.
    private(set) var problem: (line: Int, message: String)?
    /// A read failure, reported instead of the truncated rows CSV.swift would return.
    private(set) var readError: SourceError?

    init(input: FileInput, delimiter: UInt8, chunkSize: Int = 64 << 10) {
        self.input = input
        self.delimiter = delimiter
        self.chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        super.init(data: Data())
    }

    deinit {
        chunk.deallocate()
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { readError }

    override var hasBytesAvailable: Bool {
        guard status == .open else { return false }
        fillIfEmpty()
        return chunkStart < chunkEnd
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        fillIfEmpty()
        if readError != nil { return -1 }
        let count = min(length, chunkEnd - chunkStart)
        guard count > 0 else { return 0 }
        UnsafeMutableRawPointer(buffer).copyMemory(from: chunk.baseAddress! + chunkStart, byteCount: count)
        chunkStart += count
        return count
    }

    private func fillIfEmpty() {
        guard chunkStart == chunkEnd, !atEnd else { return }
        do throws(SourceError) {
            let count = try input.readChunk(into: chunk.baseAddress!, count: chunk.count)
            chunkStart = 0
            chunkEnd = count
            if count == 0 {
                atEnd = true
                if state == .quoted, problem == nil {
                    problem = (quoteStartLine, "unterminated quoted field (the quote opens on this line)")
                }
            } else {
                scan(UnsafeRawBufferPointer(start: chunk.baseAddress!, count: count).bindMemory(to: UInt8.self))
            }
        } catch {
            readError = error
            atEnd = true
            status = .error
        }
    }

    private func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        for byte in bytes {
            switch state {
            case .fieldStart, .unquoted:
                if byte == delimiter || byte == carriageReturn {
                    state = .fieldStart
                } else if byte == newline {
                    state = .fieldStart
                    line += 1
                } else if byte == quote, state == .fieldStart {
                    state = .quoted
                    quoteStartLine = line
                } else {
                    state = .unquoted
                }
            case .quoted:
                if byte == quote {
                    state = .quoteInQuoted
                } else if byte == newline {
                    line += 1
                }
            case .quoteInQuoted:
                if byte == quote {
                    state = .quoted  // an escaped "" inside the field
                } else if byte == delimiter || byte == carriageReturn {
                    state = .fieldStart
                } else if byte == newline {
                    state = .fieldStart
                    line += 1
                } else {
                    if problem == nil {
                        problem = (line, "unexpected text after a closing quote (a quote inside a quoted field must be doubled)")
                    }
                    state = .quoted  // what CSV.swift does next; keeps the line count meaningful
                }
            }
        }
    }
}
