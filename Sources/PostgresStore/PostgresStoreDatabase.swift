import Domain
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// The shared store's database: PostgreSQL through PostgresNIO, for many processes and machines on one
/// manifest.
///
/// The store protocols are synchronous, and their callers call them on threads of their own (the run's output
/// and history threads, a sink pass's thread, the response cache's lease thread, the CLI's main thread). So
/// each call waits for its query's future (`EventLoopFuture.wait()`) on the calling thread, while the I/O
/// runs on SwiftNIO's event loop threads: nothing here ever needs a thread of Swift's cooperative pool, so a
/// call that does come from the pool can delay it but never deadlock it.
///
/// A process uses at most `maxConnections` connections for its calls, opened on demand and kept for reuse; a
/// call that finds them all busy waits for one (each connection is a process the server forks). Advisory locks
/// live on one more connection (`PostgresLeaseSession`); only a lease that must wait for another holder opens its
/// own. A connection found dead (the server restarted) is dropped and the call tried once more on a new one.
public final class PostgresStoreDatabase: Sendable {
    public let url: PostgresStoreURL
    private let configuration: PostgresConnection.Configuration
    private let idle = Mutex<[PostgresConnection]>([])
    /// One permit per connection a call may use.
    private let permits = DispatchSemaphore(value: PostgresStoreDatabase.maxConnections)
    private let connectionIDs = Atomic<Int>(0)
    /// The connection this process's advisory locks are held on.
    let leases = PostgresLeaseSession()
    let logger = Logger(label: "aggregate.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The most connections this process's calls use at once (leases aside). Store calls are short; 8 kept a
    /// 300-source run's calls from waiting on each other (BENCHMARKS.md, "The fleet").
    public static let maxConnections = 8
    /// How long a call waits for one of them before it fails.
    static let connectionWaitSeconds: Double = 60
    /// How long connecting may take.
    static let connectTimeoutSeconds: Int64 = 10

    private init(url: PostgresStoreURL) throws(SourceError) {
        self.url = url
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: try Self.tls(for: url))
        configuration.options.connectTimeout = .seconds(Self.connectTimeoutSeconds)
        self.configuration = configuration
    }

    /// Connects to the store at `url` and creates or upgrades its schema. Blocks the calling thread.
    /// - Throws: a message that names the host and never the password.
    public static func open(_ url: PostgresStoreURL) throws(SourceError) -> PostgresStoreDatabase {
        let database = try PostgresStoreDatabase(url: url)
        try PostgresSchema.migrate(database)
        return database
    }

    deinit {
        close()
    }

    /// Closes the idle connections (the process is done with the store).
    public func close() {
        let connections = idle.withLock { idle in
            defer { idle = [] }
            return idle
        }
        for connection in connections { connection.closeSoon() }
        leases.close()
    }

    private static func tls(for url: PostgresStoreURL) throws(SourceError) -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch url.sslMode {
        case .disable: return .disable
        case .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let path = url.rootCertificatePath { tls.trustRoots = .file(path) }
        do {
            let context = try NIOSSLContext(configuration: tls)
            return url.sslMode == .prefer ? .prefer(context) : .require(context)
        } catch {
            throw SourceError(.configuration, "the TLS settings of the store \(url.redacted) cannot be used")
        }
    }

    /// The server's version and the migrations applied, in order (`aggregate store info`).
    public func describe() throws(SourceError) -> (serverVersion: String, migrations: [String]) {
        let version = try withSession { session in
            try session.rows("SHOW server_version").first?[0].decode(String.self) ?? "?"
        }
        return (version, try PostgresSchema.applied(self))
    }

    // MARK: - Connections

    /// A new connection of its own (a lease holds one for as long as it lives).
    func connect() throws(SourceError) -> PostgresConnection {
        let id = connectionIDs.add(1, ordering: .relaxed).newValue
        do {
            return try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: id, logger: logger
            ).wait()
        } catch {
            throw SourceError(.network, "cannot connect to the store \(url.redacted): \(describe(error))")
        }
    }

    /// Runs `body` on a pooled connection. A pooled connection that turns out dead is replaced once.
    @discardableResult
    func withSession<T>(_ body: (PostgresSession) throws -> T) throws(SourceError) -> T {
        guard permits.wait(timeout: .now() + Self.connectionWaitSeconds) == .success else {
            throw SourceError(
                .timeout, "the store \(url.redacted) had no free connection for \(Int(Self.connectionWaitSeconds)) s "
                    + "(this process uses at most \(Self.maxConnections))")
        }
        defer { permits.signal() }
        var attempt = 0
        while true {
            attempt += 1
            // A connection the server closed while it was idle (a restart) is dropped, not tried.
            let pooled = idle.withLock { idle -> PostgresConnection? in
                while let last = idle.popLast() {
                    if !last.isClosed { return last }
                }
                return nil
            }
            let connection: PostgresConnection
            if let pooled { connection = pooled } else { connection = try connect() }
            do {
                let result = try body(PostgresSession(connection: connection, logger: logger))
                release(connection)
                return result
            } catch {
                let dead = connection.isClosed || Self.isConnectionLoss(error)
                if dead { connection.closeSoon() } else { release(connection) }
                if dead, pooled != nil, attempt == 1 { continue }
                if let error = error as? SourceError { throw error }
                throw SourceError(.io, "the store \(url.redacted) failed: \(describe(error))")
            }
        }
    }

    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws).
    @discardableResult
    func transaction<T>(_ body: (PostgresSession) throws -> T) throws(SourceError) -> T {
        try withSession { session in
            try session.execute("BEGIN")
            do {
                let result = try body(session)
                try session.execute("COMMIT")
                return result
            } catch {
                if !session.connection.isClosed { _ = try? session.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// Keeps `connection` for the next call (never more than `maxConnections`: each call holds a permit).
    private func release(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return }
        idle.withLock { $0.append(connection) }
    }

    static func isConnectionLoss(_ error: any Error) -> Bool {
        if error is PostgresSession.Timeout { return true }
        guard let error = error as? PSQLError else { return false }
        return [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown].contains(error.code)
    }

    /// What went wrong, without the password: the server's own message, or the kind of connection failure.
    func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return url.scrub(message + state)
            }
            switch error.code {
            case .connectionError:
                return "connection failed" + (error.underlying.map { ": " + url.scrub(Self.systemReason($0)) } ?? "")
            case .serverClosedConnection, .uncleanShutdown: return "the server closed the connection"
            case .sslUnsupported: return "the server does not support TLS (sslmode=require or stricter)"
            case .authMechanismRequiresPassword: return "the server asks for a password and the URL gives none"
            default: return "PostgreSQL client error \(error.code)"
            }
        }
        if error is NIOSSLError { return "TLS failed" }
        if error is PostgresSession.Timeout { return "no answer in \(PostgresSession.defaultTimeoutSeconds) s" }
        return url.scrub(Self.systemReason(error))
    }

    /// A socket-level reason ("Connection refused"), without addresses beyond host and port.
    private static func systemReason(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.first.map { systemReason($0.error) } ?? "no address could be reached"
        }
        if error is ChannelError { return "the connection failed" }
        // A refused certificate (untrusted, or not for this host under verify-full): NIOSSL's own words name the
        // check that failed and never carry the URL or its password.
        if error is NIOSSLError || error is NIOSSLExtraError {
            return "TLS: the server's certificate was not accepted (\(error)); check sslrootcert, and the host name for verify-full"
        }
        return String(describing: type(of: error))
    }
}

/// One connection's queries, each waited for on the calling thread, at most `timeout`: a query that got no
/// answer by then fails and its connection is closed (a pooled connection whose server restarted can leave a query
/// waiting forever).
struct PostgresSession {
    let connection: PostgresConnection
    let logger: Logger
    var timeout: TimeAmount = .seconds(PostgresSession.defaultTimeoutSeconds)

    static let defaultTimeoutSeconds: Int64 = 60

    struct Timeout: Error {}

    func rows(_ query: PostgresQuery) throws -> [PostgresRandomAccessRow] {
        try wait(for: connection.query(query, logger: logger)).rows.map { $0.makeRandomAccess() }
    }

    /// Runs `query`; returns the rows it changed.
    @discardableResult
    func execute(_ query: PostgresQuery) throws -> Int {
        try wait(for: connection.query(query, logger: logger)).metadata.rows ?? 0
    }

    private func wait<T: Sendable>(for future: EventLoopFuture<T>) throws -> T {
        let promise = connection.eventLoop.makePromise(of: T.self)
        let settled = Mutex(false)
        let settle: @Sendable (Result<T, any Error>) -> Void = { result in
            guard settled.withLock({ done in defer { done = true }; return !done }) else { return }
            promise.completeWith(result)
        }
        future.whenComplete(settle)
        let watchdog = connection.eventLoop.scheduleTask(in: timeout) { [connection] in
            settle(.failure(Timeout()))
            connection.closeSoon()
        }
        defer { watchdog.cancel() }
        return try promise.futureResult.wait()
    }
}

extension PostgresConnection {
    /// Closes the connection without waiting (the server ends its session, releasing its advisory locks).
    func closeSoon() {
        let closing: EventLoopFuture<Void> = close()
        // Kept until the channel is closed: PostgresNIO requires that of a connection going away.
        closing.whenComplete { _ in withExtendedLifetime(self) {} }
    }
}
