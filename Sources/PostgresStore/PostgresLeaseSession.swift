import Domain
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The one connection on which this process holds the advisory locks it takes without waiting: a fetch lease
/// nobody else holds, a sink's sending right. Before, every lease opened a connection (and the server a process)
/// of its own: a 300-source run opened 300 sessions for its leases alone.
///
/// PostgreSQL's session locks count: a session that takes a lock it holds takes it again. So the names held
/// here are also kept in `held`, and a name this process holds is never tried on this connection a second time
/// (the caller waits on a connection of its own instead, where the server makes it wait for this one). A name
/// leaves `held` only after the server confirmed its unlock.
///
/// When the connection is lost (the server restarted), its locks go with it, as a dead process's do; the next
/// lease opens a new one.
///
/// It is a connection of its own, not one of `PostgresClient`'s: the client lends a connection for one closure and
/// takes it back, while a lock is held across calls for as long as its holder wants; and a pooled connection given
/// back with a lock on it would hand that lock to whichever call leased it next.
final class PostgresLeaseSession: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var held: Set<String> = []
    }

    private let state = Mutex(State())

    /// Takes the lock `name` on the shared connection if nobody holds it, without waiting.
    /// - Returns: the connection that holds it (unlock on that one), or nil when this or another process holds it.
    func tryLock(_ name: String, in database: PostgresStoreDatabase) throws(SourceError) -> PostgresConnection? {
        guard state.withLock({ $0.held.insert(name).inserted }) else { return nil }
        var connection: PostgresConnection?
        do {
            let shared = try self.connection(in: database)
            connection = shared
            let session = PostgresSession(connection: shared, logger: database.logger)
            let taken = try database.adapter.run {
                try await session.rows("SELECT pg_try_advisory_lock(hashtextextended(\(name), 0))").first?[0]
                    .decode(Bool.self)
            }
            if taken == true { return shared }
            forget(name)
            return nil
        } catch {
            // Whether the server took the lock is unknown: closing the session is the one way to be sure it holds
            // nothing this process forgot.
            connection?.closeSoon()
            forget(name)
            if let error = error as? SourceError { throw error }
            throw SourceError(.io, "the store \(database.url.redacted) failed: \(database.describe(error))")
        }
    }

    /// Gives `name` back on `connection` (the one `tryLock` returned). Blocks briefly.
    func unlock(_ name: String, on connection: PostgresConnection, in database: PostgresStoreDatabase) {
        if !connection.isClosed {
            let session = PostgresSession(connection: connection, logger: database.logger, timeout: .seconds(5))
            let unlocked = (try? database.adapter.run {
                try await session.rows("SELECT pg_advisory_unlock(hashtextextended(\(name), 0))").first?[0]
                    .decode(Bool.self)
            }) == true
            // A lock the server may still hold for this session would be held until the process ends.
            if !unlocked { connection.closeSoon() }
        }
        forget(name)
    }

    /// Runs `body` on the shared connection, opened if there is none (`open` migrates the schema there, before any
    /// lock is taken, so that an unreachable server is named with the reason at once). Blocks the calling thread.
    func run<T: Sendable>(
        in database: PostgresStoreDatabase, _ body: @escaping @Sendable (PostgresSession) async throws -> T
    ) throws(SourceError) -> T {
        let session = PostgresSession(connection: try connection(in: database), logger: database.logger)
        do {
            return try database.adapter.run { try await body(session) }
        } catch let error as SourceError {
            throw error
        } catch {
            throw SourceError(.io, "the store \(database.url.redacted) failed: \(database.describe(error))")
        }
    }

    /// Closes the connection: the server gives up every lock on it.
    func close() {
        let connection = state.withLock { state in
            defer { state.connection = nil }
            return state.connection
        }
        connection?.closeSoon()
    }

    private func forget(_ name: String) {
        _ = state.withLock { $0.held.remove(name) }
    }

    /// The shared connection, opened (outside the lock) when there is none or it was lost.
    private func connection(in database: PostgresStoreDatabase) throws(SourceError) -> PostgresConnection {
        if let current = state.withLock({ $0.connection }), !current.isClosed { return current }
        let opened = try database.connect()
        let (chosen, surplus) = state.withLock { state -> (PostgresConnection, PostgresConnection?) in
            if let current = state.connection, !current.isClosed { return (current, opened) }
            state.connection = opened
            return (opened, nil)
        }
        surplus?.closeSoon()
        return chosen
    }
}
