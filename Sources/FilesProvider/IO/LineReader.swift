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

    private let input: FileInput
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var reachedEnd = false
    private var isFirstChunk = true
    /// The 1-based number of the line last returned.
    private(set) var lineNumber = 0
    /// The largest the buffer has been, so tests can check that reading stays bounded.
    private(set) var peakBufferSize: Int

    init(input: FileInput, chunkSize: Int = 256 << 10) {
        self.input = input
        self.buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        self.peakBufferSize = chunkSize
    }

    deinit {
        buffer.deallocate()
    }

    /// The next line without its terminator, or nil at the end of the file.
    func nextLine() throws(SourceError) -> UnsafeBufferPointer<UInt8>? {
        while true {
            let pending = end - start
            if pending > 0, let found = memchr(buffer.baseAddress! + start, 0x0A, pending) {
                let newline = buffer.baseAddress!.distance(to: found)
                defer { start = newline + 1 }
                return line(from: start, to: newline)
            }
            if reachedEnd {
                guard pending > 0 else { return nil }
                defer { start = end }
                return line(from: start, to: end)
            }
            try fill()
        }
    }

    private func line(from lower: Int, to upper: Int) -> UnsafeBufferPointer<UInt8> {
        lineNumber += 1
        var upper = upper
        if upper > lower, buffer[upper - 1] == 0x0D { upper -= 1 }
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: base + lower, count: upper - lower)
    }

    /// Moves the unfinished line to the front, grows the buffer if that line fills it, and reads more.
    private func fill() throws(SourceError) {
        if start > 0 {
            let pending = end - start
            if pending > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + start, pending) }
            start = 0
            end = pending
        }
        if end == buffer.count {
            guard buffer.count < Self.maximumLineLength else {
                throw SourceError(.parse, "line \(lineNumber + 1): longer than \(Self.maximumLineLength >> 20) MiB")
            }
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
            grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
            buffer.deallocate()
            buffer = grown
            peakBufferSize = max(peakBufferSize, grown.count)
        }
        let count = try input.readChunk(into: buffer.baseAddress! + end, count: buffer.count - end)
        if count == 0 { reachedEnd = true }
        end += count
        if isFirstChunk, end >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
            start = 3
        }
        if end >= 3 || reachedEnd { isFirstChunk = false }
    }
}
