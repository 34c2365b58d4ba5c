import ServiceLifecycle
import Synchronization

/// The service group a server runs, and whether it was told to stop: a stop that comes before the group exists
/// still stops it (the server then never starts). `serve` and a worker's `--metrics` both hold theirs here.
final class ServiceGroupHolder: Sendable {
    private let state = Mutex<(group: ServiceGroup?, stopping: Bool)>((nil, false))

    /// Keeps `group` for `stop`. Returns false when a stop came first: do not run it.
    func hold(_ group: ServiceGroup) -> Bool {
        state.withLock { state in
            state.group = group
            return !state.stopping
        }
    }

    /// Shuts the held group down gracefully (responses in flight finish), or the one held later at once.
    func stop() {
        let group = state.withLock { state -> ServiceGroup? in
            state.stopping = true
            return state.group
        }
        if let group { Task { await group.triggerGracefulShutdown() } }
    }
}
