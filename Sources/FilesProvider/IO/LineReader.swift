import Domain
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a file into lines on `\n` bytes, reading it in fixed chunks: memory stays at one chunk plus the
/// longest line, whatever the file's size.
///
/// A returned line is a view into the reader's buffer, valid until the next call. A trailing `\r` is dropped
/// (CRLF files), and so is a UTF-8 byte-order mark at the start of the file.
final class LineReader {
    /// A longer line is refused as a parse error rather than growing the buffer without bound.
    static let maximumLineLength = 64 << 20

    private let window: FileWindow
    private var start = 0
    private var isFirstChunk = true
    /// The 1-based number of the line last returned.
    private(set) var lineNumber = 0
    /// The largest the buffer has been, so tests can check that reading stays bounded.
    var peakBufferSize: Int { window.peakBufferSize }

    init(input: FileInput, chunkSize: Int = 256 << 10) {
        self.window = FileWindow(input: input, chunkSize: chunkSize)
    }

    /// The next line without its terminator, or nil at the end of the file.
    func nextLine() throws(SourceError) -> UnsafeBufferPointer<UInt8>? {
        while true {
            let bytes = window.bytes
            let pending = bytes.count - start
            if pending > 0, let found = memchr(bytes.baseAddress! + start, 0x0A, pending) {
                let newline = UnsafeRawPointer(bytes.baseAddress!).distance(to: UnsafeRawPointer(found))
                defer { start = newline + 1 }
                return line(bytes, from: start, to: newline)
            }
            if window.reachedEnd {
                guard pending > 0 else { return nil }
                defer { start = bytes.count }
                return line(bytes, from: start, to: bytes.count)
            }
            try fill()
        }
    }

    private func line(_ bytes: UnsafeBufferPointer<UInt8>, from lower: Int, to upper: Int) -> UnsafeBufferPointer<UInt8> {
        lineNumber += 1
        var upper = upper
        if upper > lower, bytes[upper - 1] == 0x0D { upper -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[lower..<upper])
    }

    /// Reads more after the unfinished line, refusing a line that reached the maximum length.
    private func fill() throws(SourceError) {
        if start == 0, window.bytes.count == window.capacity, window.capacity >= Self.maximumLineLength {
            throw SourceError(.parse, "line \(lineNumber + 1): longer than \(Self.maximumLineLength >> 20) MiB")
        }
        try window.refill(dropping: start)
        start = 0
        if isFirstChunk, window.bytes.count >= 3 || window.reachedEnd {
            isFirstChunk = false
            start = window.byteOrderMarkLength
        }
    }
}
