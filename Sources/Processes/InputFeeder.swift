import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a program's input to its stdin pipe with plain `write(2)` and `poll(2)`, on a thread of its own.
///
/// Not `DispatchIO`: on Linux, when a pipe write is pending (the pipe's 64 KiB buffer is full) and the
/// reader goes away, the kernel reports `EPOLLERR` without `EPOLLOUT`. libdispatch ignores that for write
/// sources and re-arms the descriptor at once, so the write never completes and its manager thread spins a
/// core until the process exits. Any program that exits without reading a large input (a config it does
/// not need) triggered it.
enum InputFeeder {
    /// How often a feeder stuck on a full pipe asks whether to give up.
    static let pollInterval: Int32 = 100  // ms

    /// Feeds `payload` to `descriptor` from a new thread, closes `handle` (end of input for the program),
    /// then calls `done` with the number of bytes the pipe took.
    ///
    /// - Parameter shouldGiveUp: asked while the pipe is full; true stops feeding (the run was stopped, or
    ///   the program exited and whatever still holds its stdin is not ours to feed).
    static func start(
        _ payload: Data, to handle: FileHandle, shouldGiveUp: @escaping @Sendable () -> Bool,
        done: @escaping @Sendable (Int) -> Void
    ) {
        let thread = Thread {
            let written = feed(payload, to: handle.fileDescriptor, shouldGiveUp: shouldGiveUp)
            try? handle.close()
            done(written)
        }
        thread.name = "aggregate.exec.stdin"
        thread.start()
    }

    /// Writes until everything is written, the reader is gone (`EPIPE`, `POLLERR`) or `shouldGiveUp`;
    /// returns the bytes written. Needs `SIGPIPE` ignored, which `ProgramRun` does.
    static func feed(_ payload: Data, to descriptor: Int32, shouldGiveUp: () -> Bool) -> Int {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { return 0 }
        return payload.withUnsafeBytes { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, base + offset, bytes.count - offset)
                if count > 0 {
                    offset += count
                    continue
                }
                guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { break }
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                // A gone reader wakes this with POLLERR; the next write then fails with EPIPE.
                if poll(&waiting, 1, pollInterval) < 0, errno != EINTR { break }
                if shouldGiveUp() { break }
            }
            return offset
        }
    }
}
