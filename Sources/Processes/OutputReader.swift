import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a program's stdout and stderr together with `poll(2)` and `read(2)` on a thread of its own, so that
/// neither pipe can fill up and stall the other, until both are at their end or `stop()` is called.
///
/// Not `DispatchIO`: on Linux a DispatchIO read of a pipe can crash libdispatch's manager thread (SEGV in
/// `_dispatch_event_loop_drain`: once in about sixty end-to-end runs that interrupt a program, and in most
/// runs under ThreadSanitizer, see docs/TESTING.md); and its handlers ran on Dispatch's shared threads, which
/// a consumer applying back-pressure (the NDJSON writer) then blocked.
final class OutputReader: Sendable {
    enum Stream: Sendable {
        case stdout, stderr
    }

    /// How much one `read` takes at most.
    static let chunkSize = 64 * 1024

    /// Written to by `stop()` to wake the poll. Both ends stay open until the reader is gone, so a late
    /// `stop()` never writes to a descriptor that was closed (and perhaps reused).
    private let wake: (read: Int32, write: Int32)

    /// Copies of the output pipes' read ends, open until the reader is gone, for `writersRemain()` (the
    /// reading thread closes its own when a stream ends, and a closed number may be reused).
    private let watched: Mutex<[Int32]> = Mutex([])

    init() throws(ChildProcess.Failure) {
        wake = try ChildProcess.pipeDescriptors()
        _ = fcntl(wake.write, F_SETFL, O_NONBLOCK)  // a full wake pipe already says stop
    }

    deinit {
        close(wake.read)
        close(wake.write)
        for descriptor in watched.withLock({ $0 }) { close(descriptor) }
    }

    /// Whether anything still holds a write end of stdout or stderr. False once every writer closed, even
    /// while this reader has not yet read all they wrote (a loaded machine, a slow consumer): it then
    /// reaches their end by itself. Any thread.
    func writersRemain() -> Bool {
        var polled = watched.withLock { $0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard !polled.isEmpty, poll(&polled, nfds_t(polled.count), 0) >= 0 else { return true }
        return polled.contains { $0.revents & Int16(POLLHUP) == 0 }
    }

    /// Starts reading on a new thread. `onData` gets every chunk in the order read, never two at once;
    /// `onEnd` each stream once, when it is at its end or the reading stopped. Each descriptor is closed then.
    func start(
        stdout: FileHandle, stderr: FileHandle, onData: @escaping @Sendable (Stream, Data) -> Void,
        onEnd: @escaping @Sendable (Stream) -> Void
    ) {
        watched.withLock { $0 = [stdout, stderr].map { fcntl($0.fileDescriptor, F_DUPFD_CLOEXEC, 0) }.filter { $0 >= 0 } }
        let thread = Thread { [self] in
            drain([(.stdout, stdout), (.stderr, stderr)], onData: onData, onEnd: onEnd)
        }
        thread.name = "aggregate.exec.output"
        thread.start()
    }

    /// Stops reading soon, whatever is still open (something the program left holds it). Any thread.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    private func drain(
        _ streams: [(Stream, FileHandle)], onData: (Stream, Data) -> Void, onEnd: (Stream) -> Void
    ) {
        var open = streams
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        while !open.isEmpty {
            var polled = open.map { pollfd(fd: $0.1.fileDescriptor, events: Int16(POLLIN), revents: 0) }
            polled.append(pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0))
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 || errno == EINTR else { break }
            if polled[open.count].revents != 0 {
                // What the program wrote before it exited is still in the pipes when this reader is behind
                // (a loaded machine, a slow consumer): take it, so nothing the program said is lost.
                for (stream, handle) in open { readWhatIsBuffered(handle.fileDescriptor, into: &buffer) { onData(stream, $0) } }
                break
            }
            var ended: Set<Int> = []
            for index in open.indices where polled[index].revents != 0 {
                let count = read(polled[index].fd, &buffer, buffer.count)
                if count > 0 {
                    onData(open[index].0, Data(buffer[0..<count]))
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    ended.insert(index)
                }
            }
            for index in ended.sorted(by: >) {
                let (stream, handle) = open.remove(at: index)
                try? handle.close()
                onEnd(stream)
            }
        }
        for (stream, handle) in open {
            try? handle.close()
            onEnd(stream)
        }
    }

    /// Reads the bytes in `descriptor`'s pipe right now, and no more: a process that still holds the pipe
    /// and keeps writing cannot hold the reader.
    private func readWhatIsBuffered(_ descriptor: Int32, into buffer: inout [UInt8], _ onData: (Data) -> Void) {
        var available: Int32 = 0
        guard ioctl(descriptor, UInt(FIONREAD), &available) == 0 else { return }
        var left = Int(available)
        while left > 0 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, min(left, $0.count)) }
            if count > 0 {
                onData(Data(buffer[0..<count]))
                left -= count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
