import Domain
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open regular file read in chunks with `read(2)`: no `Data` per chunk, errors mapped to `SourceError`.
///
/// Not thread-safe: one reader owns it on one queue.
final class FileInput {
    private let descriptor: Int32
    /// Whether it is a regular file (it can be read again from an offset), not a pipe or a device.
    let isRegularFile: Bool

    /// Opens `url` for reading. Messages name no path: the caller's label (the file as written) prefixes them.
    init(url: URL) throws(SourceError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.error(errno) }
        var status = stat()
        let statted = fstat(descriptor, &status) == 0
        if statted, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw SourceError(.io, "is a directory, not a file")
        }
        self.descriptor = descriptor
        self.isRegularFile = statted && (status.st_mode & S_IFMT) == S_IFREG
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `count` bytes into `buffer`; 0 means end of file.
    func readChunk(into buffer: UnsafeMutableRawPointer, count: Int) throws(SourceError) -> Int {
        while true {
            let result = read(descriptor, buffer, count)
            if result >= 0 { return result }
            if errno == EINTR { continue }
            throw Self.error(errno)
        }
    }

    /// Moves to `offset` bytes from the start (regular files only).
    func seek(to offset: Int) throws(SourceError) {
        if lseek(descriptor, off_t(offset), SEEK_SET) < 0 { throw Self.error(errno) }
    }

    static func error(_ code: Int32) -> SourceError {
        switch code {
        case ENOENT, ENOTDIR: SourceError(.notFound, "no such file")
        case EACCES, EPERM: SourceError(.io, "permission denied")
        case EISDIR: SourceError(.io, "is a directory, not a file")
        default: SourceError(.io, "cannot read: \(String(cString: strerror(code)))")
        }
    }
}
