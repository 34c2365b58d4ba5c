import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `read(2)`, named apart from `InputStream.read`.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

/// Where the raw bytes of a feed come from: a file read in chunks, or a body already in memory.
enum FeedByteSource {
    case file(descriptor: Int32)
    case data(Data)
}

/// The stream `XMLParser(stream:)` pulls from: raw feed bytes through `FeedTranscoder`, chunk by chunk.
///
/// Streaming is what keeps memory flat on large feeds, and it sidesteps libxml2's refusal of a single
/// in-memory document over ~10 MB (`XMLParser(data:)` fails on those). Not thread-safe: one parse only.
final class FeedInputStream: InputStream {
    private static let chunkSize = 64 * 1024

    private let source: FeedByteSource
    private var transcoder: FeedTranscoder
    private var dataOffset = 0
    private var readBuffer: [UInt8]
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var reachedEnd = false
    /// The read error, if the source failed (errno text, never a path the caller did not give).
    private(set) var readError: String?

    init(source: FeedByteSource, httpCharset: String?) {
        self.source = source
        self.transcoder = FeedTranscoder(httpCharset: httpCharset)
        self.readBuffer = [UInt8](repeating: 0, count: Self.chunkSize)
        super.init(data: Data())
    }

    /// The encoding the transcoder settled on (for diagnostics and tests).
    var chosenEncoding: CharacterEncoding? { transcoder.chosenEncoding }
    /// Bytes dropped before the document's real start (`FeedTranscoder.skippedLeadingBytes`).
    var skippedLeadingBytes: Int { transcoder.skippedLeadingBytes }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { !reachedEnd || pendingOffset < pending.count }
    override var streamStatus: Stream.Status { hasBytesAvailable ? .open : .atEnd }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        while pendingOffset >= pending.count {
            if reachedEnd { return 0 }
            pending.removeAll(keepingCapacity: true)
            pendingOffset = 0
            guard fill() else { return -1 }
        }
        let count = min(length, pending.count - pendingOffset)
        pending.withUnsafeBufferPointer { bytes in
            buffer.update(from: bytes.baseAddress! + pendingOffset, count: count)
        }
        pendingOffset += count
        return count
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
            readBuffer.withUnsafeBufferPointer { bytes in
                transcoder.process(UnsafeBufferPointer(rebasing: bytes[0..<count]), final: reachedEnd, into: &pending)
            }
        case .data(let data):
            let end = min(data.count, dataOffset + Self.chunkSize)
            reachedEnd = end == data.count
            data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                transcoder.process(UnsafeBufferPointer(rebasing: bytes[dataOffset..<end]), final: reachedEnd, into: &pending)
            }
            dataOffset = end
        }
        return true
    }
}
