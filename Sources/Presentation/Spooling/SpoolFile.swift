import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary file output spools to when a format needs every item before its first byte (the JSON
/// document's sources, CSV's header, the table's widths, a date order): unlinked as soon as it is made, so it
/// goes away with the process whatever happens, and read back in chunks. The one place that does so
/// (`SpooledJSONDocument`, `ItemSpool`).
///
/// A value owned by one writer at a time (inside its owner's `Mutex`); after a failure it drops what it is
/// given and `failure` says why.
struct SpoolFile: Sendable {
    static let chunkSize = 64 * 1024

    private(set) var descriptor: Int32 = -1
    private(set) var failure: String?
    /// Bytes appended so far: the offset the next byte lands at.
    private(set) var size = 0

    /// No file: what an owner keeps once it has handed its file on.
    static let closed = SpoolFile(descriptor: -1)

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    init() {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-spool-XXXXXX").path.utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 {
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }  // gone when closed, whatever happens
        } else {
            failure = "cannot create a temporary file: \(String(cString: strerror(errno)))"
        }
    }

    /// Appends `bytes` at the end of the file.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(raw: $0) }
    }

    /// Appends the bytes of `values` (plain values: numbers, structs of numbers).
    mutating func append<Value: BitwiseCopyable>(values: [Value]) {
        values.withUnsafeBytes { append(raw: $0) }
    }

    mutating func append(raw bytes: UnsafeRawBufferPointer) {
        guard failure == nil, !bytes.isEmpty else { return }
        var offset = 0
        while offset < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset, off_t(size + offset))
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                failure = "cannot write the temporary file: \(String(cString: strerror(errno)))"
                return
            }
            offset += count
        }
        size += bytes.count
    }

    /// Reads up to `buffer.count` bytes at `offset` into `buffer`: how many were read (0 at the end or after a
    /// failure, which `failure` then tells).
    mutating func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard failure == nil else { return 0 }
        while true {
            let count = pread(descriptor, buffer.baseAddress!, buffer.count, off_t(offset))
            if count < 0, errno == EINTR { continue }
            if count < 0 { failure = "cannot read the temporary file: \(String(cString: strerror(errno)))" }
            return max(0, count)
        }
    }

    /// Hands the whole file to `output` in chunks, in order.
    mutating func copy(to output: ([UInt8]) -> Void) {
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        var offset = 0
        while offset < size {
            let count = chunk.withUnsafeMutableBytes { read(at: offset, into: $0) }
            if count == 0 { break }
            output(Array(chunk[0..<count]))
            offset += count
        }
    }

    /// Hands the whole file to `output`: at once as a file when it takes one (`SpoolOutput.write(file:count:)`,
    /// which can copy in the kernel), else in chunks.
    mutating func copy(to output: some SpoolOutput) {
        guard failure == nil, size > 0 else { return }
        if output.write(file: descriptor, count: size) { return }
        copy { output.write(bytes: $0) }
    }

    mutating func close() {
        if descriptor >= 0 { _ = closeDescriptor(descriptor) }
        descriptor = -1
    }
}

/// close(2) (the struct's own `close` hides the system's name inside it).
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}
