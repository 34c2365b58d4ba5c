import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `read(2)`, named apart from the stream's own methods.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

/// Where the raw bytes of a feed come from: a file read in chunks, or a body already in memory.
enum FeedByteSource {
    case file(descriptor: Int32)
    case data(Data)
}

/// Raw feed bytes through `FeedTranscoder`, chunk by chunk: what the push parser is fed.
///
/// Streaming keeps memory flat on large feeds: one chunk of input and what the transcoder holds back.
/// Not thread-safe: one parse only.
final class FeedInputStream {
    private static let chunkSize = 64 * 1024

    private let source: FeedByteSource
    private var transcoder: FeedTranscoder
    private var dataOffset = 0
    private var readBuffer: [UInt8]
    private var pending: [UInt8] = []
    private var reachedEnd = false
    /// The read error, if the source failed (errno text, never a path the caller did not give).
    private(set) var readError: String?

    init(source: FeedByteSource, httpCharset: String?) {
        self.source = source
        self.transcoder = FeedTranscoder(httpCharset: httpCharset)
        // Not zeroed: only what `read` wrote is ever looked at.
        self.readBuffer = [UInt8](unsafeUninitializedCapacity: Self.chunkSize) { _, count in count = Self.chunkSize }
    }

    /// The encoding the transcoder settled on (for diagnostics and tests).
    var chosenEncoding: CharacterEncoding? { transcoder.chosenEncoding }
    /// Bytes dropped before the document's real start (`FeedTranscoder.skippedLeadingBytes`).
    var skippedLeadingBytes: Int { transcoder.skippedLeadingBytes }

    /// Hands each next piece of UTF-8 (or libxml2-decoded) XML to `body`, with whether it is the last, until
    /// the source ends, fails (`readError`) or `body` returns false.
    func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>, _ last: Bool) -> Bool) {
        while !reachedEnd {
            pending.removeAll(keepingCapacity: true)
            guard fill() else { return }
            guard pending.withUnsafeBufferPointer({ body($0, reachedEnd) }) else { return }
        }
    }

    /// Reads one raw chunk and transcodes it into `pending`. False on a read error.
    private func fill() -> Bool {
        switch source {
        case .file(let descriptor):
            let count = readBuffer.withUnsafeMutableBytes { readDescriptor(descriptor, $0) }
            if count < 0 {
                if errno == EINTR { return true }
                readError = String(cString: strerror(errno))
                return false
            }
            reachedEnd = count == 0
            pending.reserveCapacity(count + count / 8)  // once, not a doubling per few KiB (repairs rarely add more)
            readBuffer.withUnsafeBufferPointer { bytes in
                transcoder.process(UnsafeBufferPointer(rebasing: bytes[0..<count]), final: reachedEnd, into: &pending)
            }
        case .data(let data):
            let end = min(data.count, dataOffset + Self.chunkSize)
            reachedEnd = end == data.count
            pending.reserveCapacity(end - dataOffset + (end - dataOffset) / 8)
            data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                transcoder.process(UnsafeBufferPointer(rebasing: bytes[dataOffset..<end]), final: reachedEnd, into: &pending)
            }
            dataOffset = end
        }
        return true
    }
}
