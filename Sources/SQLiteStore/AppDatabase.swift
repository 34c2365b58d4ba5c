import CSQLiteConnection
import Domain
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one SQLite database of the persistent store, opened through GRDB.
///
/// WAL mode (a `DatabasePool`) with a busy timeout, so two `aggregate` runs at once wait for each other
/// instead of failing, and readers never block the writer. The schema is created and upgraded by
/// `DatabaseMigrator` migrations.
public struct AppDatabase: Sendable {
    /// How long a statement waits for another process's lock before failing.
    public static let busyTimeout: TimeInterval = 10

    /// Bytes of WAL kept on disk between runs (after a checkpoint); a bigger one is truncated to this.
    static let walSizeLimit = 4 << 20

    let pool: DatabasePool
    public let url: URL

    private init(pool: DatabasePool, url: URL) {
        self.pool = pool
        self.url = url
    }

    /// Opens (creating the file and its directory if needed) and migrates the database at `url`.
    public static func open(at url: URL) throws -> AppDatabase {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "aggregate.store"
        // In WAL mode NORMAL never corrupts the database; a power cut may lose the last commits, which for a
        // cache and a history is fine, and it saves an fsync on every commit.
        //
        // The WAL also outlives the process: by default the last connection to close checkpoints it into the
        // database file (two fsyncs) and deletes it, so the next run's open writes and fsyncs a new one: kept, a
        // short run pays neither (what they cost: BENCHMARKS.md, "Cold start"). SQLite still checkpoints by
        // itself when the WAL passes 1,000 pages, and the journal size limit caps what the WAL keeps on disk.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA journal_size_limit = \(walSizeLimit)")
            let status = ResultCode(rawValue: aggregate_sqlite_keep_wal_on_close(UnsafeMutableRawPointer(db.sqliteConnection)))
            if status != .SQLITE_OK { throw DatabaseError(resultCode: status) }
        }
        return try whileHoldingOpenLock(for: url) {
            let pool = try DatabasePool(path: url.path, configuration: configuration)
            try migrate(pool)
            return AppDatabase(pool: pool, url: url)
        }
    }

    /// Runs `body` holding an exclusive `flock` on `aggregate.sqlite.lock` beside the database, so processes
    /// open (create, switch to WAL, migrate) one at a time.
    ///
    /// Opening a new file switches it to WAL, and when two runs do that at once SQLite refuses one of them
    /// with SQLITE_BUSY straight away, without waiting in the busy handler (each holds a shared lock the
    /// other needs gone; waiting could deadlock). Measured: two `aggregate` runs started together on a new
    /// store lost it ("database is locked") in 10 of 15 tries. The lock makes the second wait for the first
    /// to finish opening (milliseconds; an event, not a retry loop), after which it finds the file in WAL
    /// mode and migrated. Without a writable lock file (a read-only directory) it opens as before.
    static func whileHoldingOpenLock<T>(for url: URL, _ body: () throws -> T) throws -> T {
        let descriptor = openLockFile(url.path + ".lock")
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }  // closing releases the lock
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        return try body()
    }

    /// Opens the database; one that is corrupt or unreadable is moved aside (`aggregate.sqlite.corrupt-…`)
    /// with a warning and a new one is created. When even that fails (a read-only data directory) the
    /// database is nil and the warnings say why: the run goes on without the store.
    public static func openRecovering(at url: URL, now: Date = Date()) -> (database: AppDatabase?, warnings: [String]) {
        do {
            return (try open(at: url), [])
        } catch {
            let reason = describe(error)
            guard isDamage(error), FileManager.default.fileExists(atPath: url.path) else {
                return (nil, ["the store at \(url.path) cannot be used (\(reason)); running without cache and history"])
            }
            let aside = url.path + ".corrupt-" + String(Int(now.timeIntervalSince1970))
            do {
                for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
                    try FileManager.default.moveItem(atPath: url.path + suffix, toPath: aside + suffix)
                }
                let database = try open(at: url)
                return (database, ["the store at \(url.path) was unreadable (\(reason)); moved it to \(aside) and started a new one"])
            } catch {
                return (nil, ["the store at \(url.path) is unreadable (\(reason)) and could not be replaced "
                    + "(\(describe(error))); running without cache and history"])
            }
        }
    }

    /// Errors that mean the file itself is bad (not a lock held by another run, which the busy timeout
    /// already waited for).
    static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_IOERR,
             .SQLITE_FORMAT:
            return true
        default:
            return false
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode.rawValue)" }
        // Foundation on Linux describes a failed file operation by its Cocoa code alone ("error 512"): the path
        // and the system's reason are in the error's user info.
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? POSIXError {
            let reason = String(cString: strerror(underlying.code.rawValue))
            return (error.userInfo[NSFilePathErrorKey] as? String).map { "\($0): \(reason)" } ?? reason
        }
        return error.localizedDescription
    }

    /// Two processes may open a new database at the same moment: both see no migration applied, one
    /// wins the write lock and the other's `CREATE TABLE` then fails. Migrating again sees the work done.
    private static func migrate(_ pool: DatabasePool) throws {
        var attempt = 0
        while true {
            do {
                try migrator.migrate(pool)
                return
            } catch {
                attempt += 1
                if attempt >= 3 || (try? pool.read(migrator.hasCompletedMigrations)) == true {
                    if (try? pool.read(migrator.hasCompletedMigrations)) == true { return }
                    throw error
                }
            }
        }
    }

    /// The newest migration applied (such as `v4-history-source-keys`) and how many this build knows, for `aggregate doctor`.
    public func schemaVersion() -> (applied: String?, known: Int, appliedCount: Int) {
        let applied = (try? pool.read { try Self.migrator.appliedIdentifiers($0) }) ?? []
        let known = Self.migrator.migrations
        return (known.last { applied.contains($0) }, known.count, applied.count)
    }

    /// Runs `work` in a write transaction, mapping SQLite failures to the Domain's `io` error.
    func write<T>(_ work: (Database) throws -> T) throws(SourceError) -> T {
        do {
            return try pool.write(work)
        } catch {
            throw SourceError(.io, "the store could not be written: \(Self.describe(error))")
        }
    }

    func read<T>(_ work: (Database) throws -> T) throws(SourceError) -> T {
        do {
            return try pool.read(work)
        } catch {
            throw SourceError(.io, "the store could not be read: \(Self.describe(error))")
        }
    }
}

/// `open(2)` of the store's lock file (outside `AppDatabase`, whose `open(at:)` hides the C function).
private func openLockFile(_ path: String) -> Int32 {
    open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
}
