import Foundation
import Persistence
import Synchronization

/// The container's store: opened once, by the first run or command that needs it, and shared by every
/// later run of the process (watch and serve run many).
final class StoreHandle: Sendable {
    private enum State {
        case closed
        case opened(AppDatabase?)
    }

    private let url: URL
    private let state = Mutex(State.closed)

    /// The database file's path (a key for work on this store).
    var path: String { url.path }

    init(url: URL) {
        self.url = url
    }

    /// The store, recovering from a damaged file (nil when there is no usable one). `warnings` are for
    /// people and come only from the call that opened it.
    func open() -> (database: AppDatabase?, warnings: [String]) {
        if case .opened(let database) = state.withLock({ $0 }) { return (database, []) }
        // Opening can wait for another process (busy timeout): not under the lock. Two first calls at once
        // both open; the first to finish is kept, the other connection is dropped.
        let (database, warnings) = AppDatabase.openRecovering(at: url)
        return state.withLock { state in
            if case .opened(let kept) = state { return (kept, []) }
            state = .opened(database)
            return (database, warnings)
        }
    }
}
