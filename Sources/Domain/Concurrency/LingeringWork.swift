import Dispatch
import Synchronization

/// Work a source started that must be over before the run may complete, even after the source itself was
/// reported (timed out, cancelled): a program's process group that is being stopped. The run waits for
/// it, so nothing the run started outlives it.
///
/// Only work that is sure to end soon belongs here (a stop is SIGTERM, then SIGKILL after a grace period):
/// a source that merely keeps loading after its timeout must not hold the run.
public final class LingeringWork: Sendable {
    private let group = DispatchGroup()

    /// Nothing registered yet.
    public init() {}

    /// Registers work; call the returned closure once when it is over (later calls do nothing).
    public func begin() -> @Sendable () -> Void {
        group.enter()
        let ended = Atomic(false)
        return { [group] in
            if !ended.exchange(true, ordering: .acquiringAndReleasing) { group.leave() }
        }
    }

    /// Runs `work` on `queue` once every registered piece of work is over (at once when none is).
    public func notify(queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        group.notify(queue: queue, execute: work)
    }
}
