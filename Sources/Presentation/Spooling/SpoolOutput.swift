/// Where a spooled document is written: bytes, and optionally a whole spool file at once.
public protocol SpoolOutput {
    func write(bytes: [UInt8])
    /// Writes the first `count` bytes of the open file `descriptor` after everything written so far, and returns
    /// true; or returns false, having written nothing, when this output cannot take a file (the spool then
    /// writes the bytes itself).
    func write(file descriptor: Int32, count: Int) -> Bool
}

/// An output of bytes only.
struct ByteOutput: SpoolOutput {
    let write: ([UInt8]) -> Void

    func write(bytes: [UInt8]) { write(bytes) }

    func write(file descriptor: Int32, count: Int) -> Bool { false }
}
