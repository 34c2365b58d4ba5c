import Foundation
import Synchronization

/// One server-sent event: its id (increasing from 1 for the life of the process), name and JSON data.
public struct ServerEvent: Sendable, Hashable {
    public var id: Int
    public var name: String
    public var data: String
}

/// The last `capacity` events, which every `/events` client reads from.
///
/// The ring is the one copy: a client keeps only the id it sent last and reads what follows from here when
/// woken, so a slow client holds no buffer of its own and never holds up a publisher or another client. A
/// client that fell behind the ring's start is ended; it reconnects with `Last-Event-ID`.
public final class EventLog: Sendable {
    /// A client's wake-ups: one is pending at most, whatever was published meanwhile.
    public struct Subscription: Sendable {
        public let id: Int
        public let wakeUps: AsyncStream<Void>
    }

    private struct State {
        var ring: [ServerEvent] = []
        /// Index in `ring` of the oldest event (the ring wraps once full).
        var head = 0
        var nextID = 1
        var clients: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextClient = 0
        var isClosed = false
    }

    public let capacity: Int
    public let maxClients: Int
    private let state = Mutex(State())

    public init(capacity: Int = 4096, maxClients: Int = 64) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.maxClients = maxClients
    }

    /// Appends an event and wakes every client. Returns its id.
    @discardableResult
    public func publish(_ name: String, data: String) -> Int {
        let (id, clients) = state.withLock { state -> (Int, [AsyncStream<Void>.Continuation]) in
            let event = ServerEvent(id: state.nextID, name: name, data: data)
            state.nextID += 1
            if state.ring.count < capacity {
                state.ring.append(event)
            } else {
                state.ring[state.head] = event
                state.head = (state.head + 1) % capacity
            }
            return (event.id, Array(state.clients.values))
        }
        for client in clients { client.yield() }
        return id
    }

    /// The id of the newest event (0 before the first).
    public var lastID: Int { state.withLock { $0.nextID - 1 } }

    /// The id of the oldest event kept (the next id while none is).
    public var oldestID: Int { state.withLock { $0.ring.isEmpty ? $0.nextID : $0.ring[$0.head].id } }

    /// What follows `id`, oldest first, at most `limit`; nil when events after `id` already left the ring
    /// (the caller cannot resume without loss).
    public func events(after id: Int, limit: Int = 256) -> [ServerEvent]? {
        state.withLock { state in
            let newest = state.nextID - 1
            guard id < newest else { return [] }
            let oldest = state.ring.isEmpty ? state.nextID : state.ring[state.head].id
            guard id + 1 >= oldest else { return nil }
            let start = id + 1 - oldest
            let count = min(newest - id, limit)
            return (0..<count).map { state.ring[(state.head + start + $0) % state.ring.count] }
        }
    }

    /// A new client, or nil when `maxClients` are connected or the log is closed.
    public func subscribe() -> Subscription? {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int? in
            guard !state.isClosed, state.clients.count < maxClients else { return nil }
            state.nextClient += 1
            state.clients[state.nextClient] = continuation
            return state.nextClient
        }
        guard let id else {
            continuation.finish()
            return nil
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return Subscription(id: id, wakeUps: stream)
    }

    public var clientCount: Int { state.withLock { $0.clients.count } }

    /// A client left (also when its stream ends).
    public func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.clients.removeValue(forKey: id) }
    }

    /// Wakes every client without an event (a keep-alive is due).
    public func wakeAll() {
        for client in state.withLock({ Array($0.clients.values) }) { client.yield() }
    }

    /// Ends every client's stream and refuses new ones (shutdown).
    public func close() {
        let clients = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            state.isClosed = true
            defer { state.clients.removeAll() }
            return Array(state.clients.values)
        }
        for client in clients { client.finish() }
    }
}
