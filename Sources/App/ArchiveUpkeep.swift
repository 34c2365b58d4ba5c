import Domain
import Foundation
import Logging
import Synchronization

/// The archive's upkeep by long-running front ends (watch, serve, a fleet worker): after each run, on a thread of
/// its own, what the run staged is written and indexed (`StagingItemArchive.catchUp`), and the archive is
/// pruned by the manifest's retention after the first run and then at most once every `pruneInterval`. One catch-up
/// at a time; a run ending during one makes it go round once more. A run never waits for it (the store works in
/// small transactions). A one-shot run leaves both to the next reader and to `aggregate archive prune`.
final class ArchiveUpkeep: Sendable {
    static let pruneInterval: TimeInterval = 6 * 3_600

    /// What one pass did.
    struct Pass: Sendable, Equatable {
        /// Items written from what runs staged.
        var written: Int
        /// Items pruned; nil when no prune was due.
        var pruned: Int?
    }

    private struct State {
        var lastPruned: Date?
        var running = false
        var again = false
    }

    private let state = Mutex(State())

    /// Starts a pass over `container`'s store, or has the running one go round again.
    /// - Parameter done: called on the pass's thread when it ends (for tests; failures are also logged).
    /// - Returns: whether a pass started (false: the running one goes round again).
    @discardableResult
    func afterRun(
        in container: AppDIContainer, now: Date, done: (@Sendable (Result<Pass, SourceError>) -> Void)? = nil
    ) -> Bool {
        let start = state.withLock { state -> Bool in
            if state.running { state.again = true }
            defer { state.running = true }
            return !state.running
        }
        guard start else { return false }
        let thread = Thread { [self] in
            let result: Result<Pass, SourceError>
            do throws(SourceError) {
                result = .success(try pass(container, now: now))
            } catch {
                result = .failure(error)
                container.logger.warning("the archive's upkeep failed: \(error.message)")
            }
            done?(result)
        }
        thread.name = "aggregate.archive-upkeep"
        thread.start()
        return true
    }

    private func pass(_ container: AppDIContainer, now: Date) throws(SourceError) -> Pass {
        var pass = Pass(written: 0)
        var catchingUp = true
        do throws(SourceError) {
            guard let archive = container.store.open().store?.archive else {
                state.withLock { $0.running = false }
                return pass
            }
            // Round again while runs ended meanwhile; the pass ends, atomically, when none did.
            while catchingUp {
                if let staging = archive as? any StagingItemArchive { pass.written += try staging.catchUp() }
                catchingUp = state.withLock { state in
                    if state.again { state.again = false } else { state.running = false }
                    return state.running
                }
            }
            let due = state.withLock { state -> Bool in
                guard state.lastPruned.map({ now.timeIntervalSince($0) >= Self.pruneInterval }) ?? true else { return false }
                state.lastPruned = now
                return true
            }
            if due {
                let manifest = container.manifest
                pass.pruned = try archive.prune(retention: { manifest.retention(of: $0) }, now: now)
            }
            return pass
        } catch {
            if catchingUp { state.withLock { $0.running = false } }
            throw error
        }
    }
}
