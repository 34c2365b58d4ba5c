import Dispatch
import Domain
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (SIGINT) or SIGTERM during a run. The first cancels the run: every source still loading is cut
/// short and stops what it started (an exec program's process group is stopped and awaited), then
/// `aggregate` exits with 128 + the signal (130 for Ctrl-C). A second one ends `aggregate` at once.
///
/// The signals are heard by Dispatch sources on a queue of their own, never by a handler that interrupts
/// arbitrary code; ignoring them first is what lets the sources have them. A signal that was already ignored
/// when aggregate started (a non-interactive shell's `aggregate &`) stays ignored, as the shell meant. The
/// programs aggregate starts run in process groups of their own: a terminal's Ctrl-C reaches aggregate
/// only, and aggregate stops them.
final class Interruption: Sendable {
    /// Cancelled by the first signal.
    let cancellation = CancellationToken()
    private let received = Mutex<Int32?>(nil)
    /// Kept for as long as signals are to be heard.
    private let sources = Mutex<[any DispatchSourceSignal]>([])
    /// Runs just before a second signal ends the process (the watch view gives the terminal back).
    private let beforeForcedExit: @Sendable () -> Void

    init(signals: [Int32] = [SIGINT, SIGTERM], beforeForcedExit: @escaping @Sendable () -> Void = {}) {
        self.beforeForcedExit = beforeForcedExit
        let queue = DispatchQueue(label: "aggregate.signals")
        // Made inside the lock only so that they need not cross into it; nothing else can hold it yet.
        sources.withLock { sources in
            sources = signals.compactMap { number in
                guard !Self.ignore(number) else { return nil }
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { [self] in heard(number) }
                source.resume()
                return source
            }
        }
    }

    /// Ignores the signal; true when it was ignored already.
    private static func ignore(_ number: Int32) -> Bool {
        let previous = signal(number, SIG_IGN)
        return unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// 128 + the signal that cancelled the run, nil when none came.
    var exitStatus: Int32? { received.withLock { $0 }.map { 128 + $0 } }

    private func heard(_ number: Int32) {
        let first = received.withLock { received in
            defer { received = received ?? number }
            return received == nil
        }
        if first {
            cancellation.cancel()
        } else {
            beforeForcedExit()
            _exit(128 + number)
        }
    }
}
