import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's terminal: stderr for people, stdout for data.
enum Terminal {
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org).
    static var stdoutWantsColor: Bool {
        stdoutIsTTY && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Columns of the terminal stdout is on; nil when stdout is not a terminal (no truncation for pipes).
    static var stdoutWidth: Int? {
        stdoutIsTTY ? width(of: STDOUT_FILENO) : nil
    }

    /// Columns of the terminal stderr is on (live progress must not wrap, or the redraw breaks).
    static var stderrWidth: Int { width(of: STDERR_FILENO) }

    private static func width(of descriptor: Int32) -> Int {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
    }

    static var stderrWantsColor: Bool {
        stderrIsTTY && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// SIGPIPE is ignored so that a program of the exec provider that stops reading its input cannot kill
    /// us; a closed stdout is handled by `endForClosedPipe()` instead.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// The reader of stdout went away (`aggregate --format ndjson | head`): end now, as `cat` or `jq` would,
    /// by SIGPIPE, quietly, rather than read the rest of a million-line source for nobody.
    static func endForClosedPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        _exit(128 + SIGPIPE)
    }
}

/// Buffered stdout: a `TextOutputStream` for the renderers, and bytes from any thread for the streaming
/// NDJSON writer. After a failed write (the reader went away: `aggregate … | head`) the rest is dropped.
final class StandardOutput: TextOutputStream, Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var failed = false
    }

    private static let flushThreshold = 64 * 1024
    private let state = Mutex(State())

    func write(_ string: String) {
        state.withLock { state in
            state.buffer.append(contentsOf: string.utf8)
            if state.buffer.count >= Self.flushThreshold { Self.flush(&state) }
        }
    }

    func write(bytes: [UInt8]) {
        state.withLock { state in
            state.buffer.append(contentsOf: bytes)
            if state.buffer.count >= Self.flushThreshold { Self.flush(&state) }
        }
    }

    func flush() {
        state.withLock { Self.flush(&$0) }
    }

    /// Writes the first `count` bytes of the open file `descriptor` after what is buffered, with `sendfile(2)` on
    /// Linux: copied in the kernel, never read into this process, whatever its size. False, with nothing written,
    /// where stdout takes no file that way (the caller then writes the bytes).
    func write(file descriptor: Int32, count: Int) -> Bool {
        #if os(Linux)
        state.withLock { state in
            Self.flush(&state)
            guard !state.failed else { return true }  // dropped, as everything after a failed write
            var offset: off_t = 0
            while Int(offset) < count {
                let sent = sendfile(STDOUT_FILENO, descriptor, &offset, count - Int(offset))
                if sent > 0 { continue }
                if sent == 0 { return true }  // the file is shorter than said: nothing more to send
                switch errno {
                case EINTR: continue
                case EAGAIN:  // a non-blocking stdout that is full
                    var ready = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                case EINVAL where offset == 0, ENOSYS where offset == 0:
                    return false
                case EPIPE:
                    state.failed = true
                    Terminal.endForClosedPipe()
                default:
                    state.failed = true
                    return true
                }
            }
            return true
        }
        #else
        false
        #endif
    }

    private static func flush(_ state: inout State) {
        defer { state.buffer.removeAll(keepingCapacity: true) }
        guard !state.buffer.isEmpty, !state.failed else { return }
        do {
            try FileHandle.standardOutput.write(contentsOf: state.buffer)
        } catch {
            state.failed = true  // nothing more can be said to it
            if Self.isClosedPipe(error) { Terminal.endForClosedPipe() }
        }
    }

    /// Foundation reports EPIPE as a Cocoa write error with the POSIX error underneath.
    private static func isClosedPipe(_ error: any Error) -> Bool {
        var current: NSError? = error as NSError
        while let error = current {
            if error.domain == NSPOSIXErrorDomain, error.code == Int(EPIPE) { return true }
            current = error.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return false
    }
}
