import Domain
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// The shared store's database: PostgreSQL through PostgresNIO's `PostgresClient`, for many processes and machines
/// on one manifest.
///
/// The client keeps the pool: at most `maxConnections` connections for this process's calls, opened on demand,
/// kept while in use (idle ones close after a minute), checked with keep-alive queries. It runs as a service
/// (`PostgresClient.run()`) in a task this database starts and `close()` cancels.
///
/// The store protocols are synchronous, and their callers call them on threads of their own (the run's output and
/// history threads, a sink pass's thread, the response cache's lease thread, the CLI's main thread). So each call
/// is one async body run through `PostgresBlockingAdapter`: the caller blocks while the body runs on a SwiftNIO
/// event loop, never on Swift's cooperative pool, so a call from a pool thread can delay it but never deadlock it.
///
/// A call that waits more than `connectionWaitSeconds` for a connection fails, naming why (a direct connection
/// attempt says whether the server can be reached at all); while the server is away the client retries in the
/// background, so a call made during a short restart just waits for it. A connection found dead (the server
/// restarted) fails the call's body, which is tried once more on another. Advisory locks live on connections of
/// their own (`PostgresLeaseSession`), not the pool's: a lock is held across calls, for as long as its holder
/// wants, and the pool lends a connection only for one closure. The first of them is opened by `open`, which
/// migrates the schema on it, so an unreachable server is named at once with the reason.
public final class PostgresStoreDatabase: Sendable {
    public let url: PostgresStoreURL
    /// For the connections of our own: the leases', and the one that says why the pool has none.
    private let configuration: PostgresConnection.Configuration
    private let client: PostgresClient
    /// `client.run()`: cancelled, the client closes its connections.
    private let service: Task<Void, Never>
    let adapter = PostgresBlockingAdapter(group: MultiThreadedEventLoopGroup.singleton)
    private let connectionIDs = Atomic<Int>(0)
    /// How many calls the pool's connections answered: a wait that sees it move knows the server is up.
    private let answers = Atomic<Int>(0)
    /// The connection this process's advisory locks are held on.
    let leases = PostgresLeaseSession()
    let logger = Logger(label: "aggregate.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The most connections this process's calls use at once (leases aside).
    public static let maxConnections = 8
    /// How long a call waits for one of them before it fails (a test sets its own).
    let connectionWaitSeconds: Int64
    /// What a call's waits for a connection are timed on (a test may step it).
    let clock: any TimerClock
    /// How long a call waits for one before asking whether the server can be reached at all.
    static let probeDelaySeconds: Int64 = 1
    /// How long connecting may take.
    static let connectTimeoutSeconds: Int64 = 10

    private init(url: PostgresStoreURL, connectionWaitSeconds: Int64, clock: any TimerClock) throws(SourceError) {
        self.url = url
        self.connectionWaitSeconds = connectionWaitSeconds
        self.clock = clock
        let (tls, clientTLS) = try Self.tls(for: url)
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        configuration.options.connectTimeout = .seconds(Self.connectTimeoutSeconds)
        self.configuration = configuration
        var clientConfiguration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: clientTLS)
        clientConfiguration.options.connectTimeout = .seconds(Self.connectTimeoutSeconds)
        clientConfiguration.options.maximumConnections = Self.maxConnections
        let client = PostgresClient(
            configuration: clientConfiguration, eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            backgroundLogger: logger)
        self.client = client
        service = adapter.start { await client.run() }
    }

    /// Connects to the store at `url` and creates or upgrades its schema. Blocks the calling thread.
    /// - Throws: a message that names the host and never the password.
    public static func open(_ url: PostgresStoreURL) throws(SourceError) -> PostgresStoreDatabase {
        try open(url, connectionWaitSeconds: 60)
    }

    /// `open(_:)` with how long a call waits for a pooled connection while the server answers, on `clock`.
    static func open(
        _ url: PostgresStoreURL, connectionWaitSeconds: Int64, clock: any TimerClock = SystemClock()
    ) throws(SourceError) -> PostgresStoreDatabase {
        let database = try PostgresStoreDatabase(url: url, connectionWaitSeconds: connectionWaitSeconds, clock: clock)
        do {
            try PostgresSchema.migrate(database)
        } catch {
            database.close()
            throw error
        }
        return database
    }

    deinit {
        close()
    }

    /// Stops the client (it closes its connections) and closes the leases' connection. Does not wait.
    public func close() {
        service.cancel()
        leases.close()
    }

    /// The TLS settings of `url`, for our own connections and for the client's. Checked here, so that settings
    /// that cannot be used fail `open` rather than every connection attempt.
    private static func tls(
        for url: PostgresStoreURL
    ) throws(SourceError) -> (PostgresConnection.Configuration.TLS, PostgresClient.Configuration.TLS) {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch url.sslMode {
        case .disable: return (.disable, .disable)
        case .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let path = url.rootCertificatePath { tls.trustRoots = .file(path) }
        do {
            let context = try NIOSSLContext(configuration: tls)
            return url.sslMode == .prefer ? (.prefer(context), .prefer(tls)) : (.require(context), .require(tls))
        } catch {
            throw SourceError(.configuration, "the TLS settings of the store \(url.redacted) cannot be used")
        }
    }

    /// The server's version and the migrations applied, in order (`aggregate store info`).
    public func describe() throws(SourceError) -> (serverVersion: String, migrations: [String]) {
        let version = try withSession { session in
            try await session.rows("SHOW server_version").first?[0].decode(String.self) ?? "?"
        }
        return (version, try PostgresSchema.applied(self))
    }

    // MARK: - Connections

    /// A new connection of its own (a lease holds one for as long as it lives). Blocks the calling thread.
    func connect() throws(SourceError) -> PostgresConnection {
        do {
            return try adapter.run { try await self.connectDirectly() }
        } catch {
            throw SourceError(.network, "cannot connect to the store \(url.redacted): \(describe(error))")
        }
    }

    private func connectDirectly() async throws -> PostgresConnection {
        let id = connectionIDs.add(1, ordering: .relaxed).newValue
        return try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: id, logger: logger)
    }

    /// Runs `body` on a connection of the client's pool, blocking the calling thread until it is done. A body that
    /// met a dead connection runs once more, on another.
    @discardableResult
    func withSession<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) async throws -> T) throws(SourceError) -> T {
        do {
            return try adapter.run {
                do {
                    return try await self.leased(body)
                } catch let error where Self.isConnectionLoss(error) {
                    // A connection the server closed (a restart) that the pool had not yet seen go.
                    return try await self.leased(body)
                }
            }
        } catch let error as SourceError {
            throw error
        } catch {
            throw SourceError(.io, "the store \(url.redacted) failed: \(describe(error))")
        }
    }

    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws).
    @discardableResult
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) async throws -> T) throws(SourceError) -> T {
        try withSession { session in try await session.transaction(body) }
    }

    /// Runs `body` on a connection of the pool, waiting at most `connectionWaitSeconds` for one. When none has come
    /// after `probeDelaySeconds` and the pool answered no call meanwhile, a connection of our own is tried: if the
    /// server cannot be reached the call fails at once with that reason (a command on a store that is down says so
    /// instead of hanging); if it can, the pool is only busy and the call goes on waiting. A pool that answers
    /// calls is no news of the server: no connection is opened for it, so a busy process stays within its
    /// connections.
    /// - Throws: a `SourceError` naming why when no connection came; else what `body` threw.
    private func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) async throws -> T) async throws -> T {
        let wait = LeaseWait()
        do {
            return try await withThrowingTaskGroup(of: LeaseRace<T>.self) { group in
                group.addTask { [client, logger] in
                    let value = try await client.withConnection { connection in
                        guard wait.lease() else { throw LeaseWait.Expired() }
                        let value = try await body(PostgresSession(connection: connection, logger: logger))
                        self.answers.add(1, ordering: .relaxed)
                        return value
                    }
                    return .done(value)
                }
                group.addTask {
                    var seen = self.answers.load(ordering: .relaxed)
                    while true {
                        try await self.pause(seconds: Self.probeDelaySeconds)
                        guard !wait.isSettled else { return .nothing }
                        let now = self.answers.load(ordering: .relaxed)
                        if now != seen {  // answered meanwhile: the server is up, the pool busy
                            seen = now
                            continue
                        }
                        guard let unreachable = await self.unreachable() else { return .nothing }
                        guard wait.expire() else { return .nothing }
                        throw unreachable
                    }
                }
                group.addTask {
                    try await self.pause(seconds: self.connectionWaitSeconds)
                    guard wait.expire() else { return .nothing }
                    throw LeaseWait.Expired()
                }
                while let next = try await group.next() {
                    guard case .done(let value) = next else { continue }
                    group.cancelAll()
                    return value
                }
                throw LeaseWait.Expired()
            }
        } catch let error as SourceError where !wait.wasLeased {
            throw error
        } catch _ where !wait.wasLeased {
            // The pool gave no connection in time: its own error (it gave up connecting) names no reason.
            throw await unreachable() ?? SourceError(
                .timeout, "the store \(url.redacted) had no free connection for \(connectionWaitSeconds) s "
                    + "(this process uses at most \(Self.maxConnections))")
        }
    }

    /// Suspends the task until `seconds` have passed on `clock`; throws `CancellationError` at once when the task is
    /// cancelled (the race in `leased` cancels its timers when the call is answered).
    private func pause(seconds: Int64) async throws {
        let waiting = Mutex<CheckedContinuation<Void, any Error>?>(nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                waiting.withLock { $0 = continuation }
                // Cancelled before the continuation was kept: the handler found nothing to resume.
                if Task.isCancelled { waiting.withLock { $0.take() }?.resume(throwing: CancellationError()) }
                clock.wake(after: TimeInterval(seconds)) { waiting.withLock { $0.take() }?.resume() }
            }
        } onCancel: {
            waiting.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }

    /// Why the server cannot be reached, from a connection of our own; nil when it can (the connection is closed).
    private func unreachable() async -> SourceError? {
        do {
            let probe = try await connectDirectly()
            probe.closeSoon()
            return nil
        } catch {
            return SourceError(.network, "cannot connect to the store \(url.redacted): \(describe(error))")
        }
    }
}

/// One call's wait for a pooled connection: either the connection comes first and the call runs, or the wait
/// expires first and the call fails; never both.
private final class LeaseWait: Sendable {
    private enum State { case waiting, leased, expired }
    private let state = Mutex(State.waiting)

    struct Expired: Error {}

    /// The connection came: true when the wait had not expired.
    func lease() -> Bool { transition(to: .leased) }
    /// The wait is up: true when no connection came.
    func expire() -> Bool { transition(to: .expired) }
    /// Whether the connection came or the wait is up.
    var isSettled: Bool { state.withLock { $0 != .waiting } }
    /// Whether the connection came in time (so an error is the call's own).
    var wasLeased: Bool { state.withLock { $0 == .leased } }

    private func transition(to next: State) -> Bool {
        state.withLock { state in
            guard state == .waiting else { return false }
            state = next
            return true
        }
    }
}

/// What a task of `leased` ended with: the call's value, or nothing (a timer or a probe that found the wait settled,
/// or the server reachable).
private enum LeaseRace<T: Sendable>: Sendable {
    case done(T)
    case nothing
}
