import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal state the full-screen view changes, and its restoration: on a normal exit, after Ctrl-C
/// (which stops the watch, which ends the view) and on a crash (a fatal signal's handler writes the restore
/// sequence and puts the terminal's modes back before the process dies as it would have).
enum ScreenRestore {
    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    private static let leaveSequence = "\u{1B}[?25h\u{1B}[?1049l"

    /// What the view changed. Written on the main thread only (`enter`, `makeRaw`, `leave`); the crash handler
    /// only reads it. One value on purpose: with three separate statics, the first assignment to one of them
    /// was measured to reset another (their lazy initialisation ran late), so the view was never left.
    private struct Saved {
        var modes = termios()
        var hasModes = false
        var isActive = false
    }

    nonisolated(unsafe) private static var saved = Saved()

    /// The alternate screen, cursor hidden; installs the crash handlers.
    static func enter() {
        saved.isActive = true
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGTRAP, SIGFPE] {
            signal(number, crashHandler)
        }
        write(enterSequence)
    }

    /// stdin without line buffering or echo, keeping Ctrl-C's signal.
    static func makeRaw() {
        var modes = termios()
        guard tcgetattr(STDIN_FILENO, &modes) == 0 else { return }
        saved.modes = modes
        saved.hasModes = true
        modes.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &modes)
    }

    /// Back to the screen and modes the view found. Also called from the signal queue when a second Ctrl-C
    /// ends the process at once: then nothing else runs on the main thread any more that could race it.
    static func leave() {
        guard saved.isActive else { return }
        saved.isActive = false
        if saved.hasModes { tcsetattr(STDIN_FILENO, TCSANOW, &saved.modes) }
        write(leaveSequence)
    }

    /// Writes `text` to stdout at once, whole (the view's frames and the screen switches).
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 { offset += written } else if errno != EINTR { return }
        }
    }

    /// Only async-signal-safe calls: write, tcsetattr, signal, raise.
    private static let crashHandler: @convention(c) (Int32) -> Void = { number in
        let leave: StaticString = "\u{1B}[?25h\u{1B}[?1049l"
        _ = Glibc.write(STDOUT_FILENO, leave.utf8Start, leave.utf8CodeUnitCount)
        if ScreenRestore.saved.hasModes { tcsetattr(STDIN_FILENO, TCSANOW, &ScreenRestore.saved.modes) }
        signal(number, SIG_DFL)
        raise(number)
    }
}
