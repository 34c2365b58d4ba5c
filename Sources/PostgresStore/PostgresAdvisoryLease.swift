import Domain
import Foundation
import Logging
import PostgresNIO
import StoreSupport
import Synchronization

/// A session advisory lock: released by `release()`, and by the server when the holder's session ends any other
/// way (the process was killed, the machine lost its network). So a lease never outlives its holder, and no
/// expiry has to be guessed.
///
/// A lock nobody holds is taken on the process's shared lease connection (`PostgresLeaseSession`): no
/// connection per lease. Only a lease that has to wait for another holder waits on a connection of its own
/// (the server's `lock_timeout` bounds the wait), and keeps that connection while it holds the lock. Neither is
/// one of the client's pooled connections (`PostgresLeaseSession` says why).
final class PostgresAdvisoryLease: ResponseFetchLease, Sendable {
    private enum Hold {
        case shared(PostgresLeaseSession, PostgresConnection)
        case own(PostgresConnection)
    }

    private let hold: Mutex<Hold?>
    private let name: String
    private let database: PostgresStoreDatabase

    private init(_ hold: Hold, name: String, database: PostgresStoreDatabase) {
        self.hold = Mutex(hold)
        self.name = name
        self.database = database
    }

    /// Takes the lock named `name`, waiting while another holds it, at most `seconds` (PostgreSQL's
    /// `lock_timeout`), or until `cancellation` fires (which closes the connection the wait runs on). Blocks the
    /// calling thread.
    static func acquire(
        _ name: String, in database: PostgresStoreDatabase, waitingAtMost seconds: Double, cancellation: CancellationToken
    ) throws(SourceError) -> PostgresAdvisoryLease {
        if let lease = try tryAcquire(name, in: database) { return lease }
        let connection = try database.connect()
        let registration = cancellation.onCancel { connection.closeSoon() }
        defer { cancellation.removeHandler(registration) }
        // The wait is the server's (lock_timeout); the session's own bound only guards against a lost answer.
        let session = PostgresSession(
            connection: connection, logger: database.logger, timeout: .milliseconds(Int64(seconds * 1000) + 30_000))
        do {
            try database.adapter.run {
                try await session.execute(PostgresQuery(unsafeSQL: "SET lock_timeout = \(max(1, Int(seconds * 1000)))"))
                try await session.execute("SELECT pg_advisory_lock(hashtextextended(\(name), 0))")
            }
            return PostgresAdvisoryLease(.own(connection), name: name, database: database)
        } catch {
            connection.closeSoon()
            throw SourceError(.timeout, "the lease \(name) was not had in time: \(database.describe(error))")
        }
    }

    /// Takes the lock named `name` if nobody holds it, without waiting; nil when somebody does (this process
    /// included).
    static func tryAcquire(_ name: String, in database: PostgresStoreDatabase) throws(SourceError) -> PostgresAdvisoryLease? {
        guard let connection = try database.leases.tryLock(name, in: database) else { return nil }
        return PostgresAdvisoryLease(.shared(database.leases, connection), name: name, database: database)
    }

    deinit {
        release()
    }

    /// Unlocks and waits for the server to confirm (so whoever tries next finds the lock free). Blocks briefly.
    func release() {
        let held = hold.withLock { hold in
            defer { hold = nil }
            return hold
        }
        switch held {
        case nil: return
        case .shared(let leases, let connection):
            leases.unlock(name, on: connection, in: database)
        case .own(let connection):
            let session = PostgresSession(connection: connection, logger: database.logger, timeout: .seconds(5))
            _ = try? database.adapter.run { [name] in
                try await session.execute("SELECT pg_advisory_unlock(hashtextextended(\(name), 0))")
            }
            connection.closeSoon()
        }
    }
}
