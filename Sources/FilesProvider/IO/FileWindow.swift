import Domain
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The part of a file its reader has not finished with, read in chunks: `bytes` is what was read so far and
/// not dropped. The line, CSV and JSON readers keep an index into it, and when they need more they
/// `refill(dropping:)` the bytes they are done with: the rest moves to the front, the buffer doubles when
/// the rest fills it (one line, row or value longer than a chunk), and the next chunk is read after it.
/// Memory stays at one chunk plus the longest such unit, whatever the file's size.
///
/// Not thread-safe: one reader owns it on one queue.
final class FileWindow {
    private let input: FileInput
    private var buffer: UnsafeMutableRawBufferPointer
    /// How many bytes of the buffer hold the file.
    private(set) var count = 0
    /// The end of the file was read: `bytes` is all there is left.
    private(set) var reachedEnd = false
    /// The largest the buffer has been, so tests can check that reading stays bounded.
    private(set) var peakBufferSize: Int

    init(input: FileInput, chunkSize: Int) {
        self.input = input
        self.buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        self.peakBufferSize = chunkSize
    }

    deinit {
        buffer.deallocate()
    }

    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The buffer's size: a refill that keeps this many bytes doubles it.
    var capacity: Int { buffer.count }

    var isRegularFile: Bool { input.isRegularFile }

    /// Drops the first `consumed` bytes (the caller's indices move back by as many), grows the buffer when what
    /// is left fills it, and reads the next chunk after it (none: `reachedEnd`).
    func refill(dropping consumed: Int) throws(SourceError) {
        if consumed > 0 {
            let pending = count - consumed
            if pending > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + consumed, pending) }
            count = pending
        }
        if count == buffer.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
            grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            buffer.deallocate()
            buffer = grown
            peakBufferSize = max(peakBufferSize, grown.count)
        }
        let read = try input.readChunk(into: buffer.baseAddress! + count, count: buffer.count - count)
        if read == 0 { reachedEnd = true }
        count += read
    }

    /// Forgets what was read and goes on reading from `offset` of the file (regular files only).
    func seek(to offset: Int) throws(SourceError) {
        try input.seek(to: offset)
        count = 0
        reachedEnd = false
    }

    /// The length of a UTF-8 byte-order mark at the start of `bytes` (call before the first drop): 3 or 0.
    var byteOrderMarkLength: Int {
        let bytes = bytes
        return bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }
}
