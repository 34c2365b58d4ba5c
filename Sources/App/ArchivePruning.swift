import Domain
import Foundation
import Logging
import Synchronization

/// The archive's retention kept by long-running front ends (watch, serve, a fleet worker): after their first run,
/// and then at most once every `interval`, the archive is pruned on a thread of its own, one pass at a time, so a
/// run never waits for it (the store prunes in small transactions). A one-shot run leaves it to `aggregate archive
/// prune`.
final class ArchivePruning: Sendable {
    static let interval: TimeInterval = 6 * 3_600

    private struct State {
        var lastStarted: Date?
        var running = false
    }

    private let state = Mutex(State())

    /// Starts a pass over `container`'s store with its manifest's retention when one is due and none is running.
    /// - Parameter done: called on the pass's thread with what it removed (for tests; failures are also logged).
    /// - Returns: whether a pass started.
    @discardableResult
    func afterRun(
        in container: AppDIContainer, now: Date, done: (@Sendable (Result<Int, SourceError>) -> Void)? = nil
    ) -> Bool {
        let due = state.withLock { state -> Bool in
            guard !state.running, state.lastStarted.map({ now.timeIntervalSince($0) >= Self.interval }) ?? true else {
                return false
            }
            state.running = true
            state.lastStarted = now
            return true
        }
        guard due else { return false }
        let thread = Thread { [self] in
            let result: Result<Int, SourceError>
            if let archive = container.store.open().store?.archive {
                let manifest = container.manifest
                do throws(SourceError) {
                    result = .success(try archive.prune(retention: { manifest.retention(of: $0) }, now: now))
                } catch {
                    result = .failure(error)
                    container.logger.warning("the archive could not be pruned: \(error.message)")
                }
            } else {
                result = .success(0)
            }
            state.withLock { $0.running = false }
            done?(result)
        }
        thread.name = "aggregate.archive-prune"
        thread.start()
        return true
    }
}
