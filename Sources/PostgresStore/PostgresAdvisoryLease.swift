import Domain
import Foundation
import Logging
import PostgresNIO
import StoreSupport
import Synchronization

/// A session advisory lock held on a connection of its own: released when `release()` closes the connection,
/// and by the server when the holder's session ends any other way (the process was killed, the machine lost
/// its network). So a lease never outlives its holder, and no expiry has to be guessed.
final class PostgresAdvisoryLease: ResponseFetchLease, Sendable {
    private let connection: Mutex<PostgresConnection?>
    private let name: String
    private let logger: Logger

    private init(connection: PostgresConnection, name: String, logger: Logger) {
        self.connection = Mutex(connection)
        self.name = name
        self.logger = logger
    }

    /// Waits for the lock named `name`, at most `seconds` (PostgreSQL's `lock_timeout`), or until `cancellation`
    /// fires (which closes the connection the wait runs on). Blocks the calling thread.
    static func acquire(
        _ name: String, in database: PostgresStoreDatabase, waitingAtMost seconds: Double, cancellation: CancellationToken
    ) throws(SourceError) -> PostgresAdvisoryLease {
        let connection = try database.connect()
        let registration = cancellation.onCancel { connection.closeSoon() }
        defer { cancellation.removeHandler(registration) }
        // The wait is the server's (lock_timeout); the session's own bound only guards against a lost answer.
        let session = PostgresSession(
            connection: connection, logger: database.logger, timeout: .milliseconds(Int64(seconds * 1000) + 30_000))
        do {
            try session.execute(PostgresQuery(unsafeSQL: "SET lock_timeout = \(max(1, Int(seconds * 1000)))"))
            try session.execute("SELECT pg_advisory_lock(hashtextextended(\(name), 0))")
            return PostgresAdvisoryLease(connection: connection, name: name, logger: database.logger)
        } catch {
            connection.closeSoon()
            throw SourceError(.timeout, "the lease \(name) was not had in time: \(database.describe(error))")
        }
    }

    /// Takes the lock named `name` if nobody holds it, without waiting; nil when somebody does.
    static func tryAcquire(_ name: String, in database: PostgresStoreDatabase) throws(SourceError) -> PostgresAdvisoryLease? {
        let connection = try database.connect()
        let session = PostgresSession(connection: connection, logger: database.logger)
        do {
            let held = try session.rows("SELECT pg_try_advisory_lock(hashtextextended(\(name), 0))").first?[0].decode(Bool.self)
            if held == true { return PostgresAdvisoryLease(connection: connection, name: name, logger: database.logger) }
            connection.closeSoon()
            return nil
        } catch {
            connection.closeSoon()
            throw SourceError(.io, "the store \(database.url.redacted) failed: \(database.describe(error))")
        }
    }

    deinit {
        let held = connection.withLock { $0 }
        held?.closeSoon()
    }

    /// Unlocks and waits for the server to confirm (so whoever tries next finds the lock free), then closes the
    /// connection. Blocks briefly: call it off the shared pool.
    func release() {
        let held = connection.withLock { connection in
            defer { connection = nil }
            return connection
        }
        guard let held else { return }
        let session = PostgresSession(connection: held, logger: logger, timeout: .seconds(5))
        _ = try? session.execute("SELECT pg_advisory_unlock(hashtextextended(\(name), 0))")
        held.closeSoon()
    }
}
