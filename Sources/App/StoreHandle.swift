import Domain
import Foundation
import Synchronization

/// The container's store: opened once, by the first run or command that needs it, and shared by every
/// later run of the process (watch and serve run many). A run that never needs it never connects.
final class StoreHandle: Sendable {
    private enum State {
        case closed
        case opened(OpenedStore?)
    }

    let location: StoreLocation
    private let state = Mutex(State.closed)

    init(location: StoreLocation) {
        self.location = location
    }

    convenience init(url: URL) {
        self.init(location: .sqlite(url))
    }

    /// The store, recovering from a damaged SQLite file (nil when there is no usable one). `warnings` are for
    /// people and come only from the call that opened it. A PostgreSQL store that cannot be reached is tried
    /// again by the next call (the server may be back).
    func open() -> (store: OpenedStore?, warnings: [String]) {
        if case .opened(let store) = state.withLock({ $0 }) { return (store, []) }
        // Opening can wait for another process or the network: not under the lock. Two first calls at once
        // both open; the first to finish is kept, the other is dropped.
        let (store, warnings) = location.open()
        if store == nil, location.isShared { return (nil, warnings.map { "the store cannot be used: \($0)" }) }
        return state.withLock { state in
            if case .opened(let kept) = state { return (kept, []) }
            state = .opened(store)
            return (store, warnings)
        }
    }
}
