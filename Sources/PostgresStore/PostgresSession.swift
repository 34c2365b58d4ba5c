import Logging
import NIOCore
import PostgresNIO

/// One connection's queries, each answered within `timeout`: a query that got no answer by then fails and its
/// connection is closed (a connection whose server restarted can leave a query waiting forever).
struct PostgresSession: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    var timeout: TimeAmount = .seconds(PostgresSession.defaultTimeoutSeconds)

    static let defaultTimeoutSeconds: Int64 = 60

    struct Timeout: Error {}
    /// The connection had closed before the query was written: nothing of it reached the server.
    struct Closed: Error {}

    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await result(of: query).rows.map { $0.makeRandomAccess() }
    }

    /// Runs `query`; returns the rows it changed.
    @discardableResult
    func execute(_ query: PostgresQuery) async throws -> Int {
        try await result(of: query).metadata.rows ?? 0
    }

    /// Runs `body` between `BEGIN` and `COMMIT`; rolls back when it throws.
    func transaction<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await execute("BEGIN")
        do {
            let result = try await body(self)
            try await execute("COMMIT")
            return result
        } catch {
            if !connection.isClosed { _ = try? await execute("ROLLBACK") }
            throw error
        }
    }

    private func result(of query: PostgresQuery) async throws -> PostgresQueryResult {
        let connection = self.connection
        let logger = self.logger
        let eventLoop = connection.eventLoop
        // The wait is for a promise of our own, which the watchdog fails: it ends within `timeout` whatever becomes
        // of the query. Closing the connection alone would not end it when the query was dropped unanswered.
        let answer = eventLoop.makePromise(of: PostgresQueryResult.self)
        let watchdog = eventLoop.scheduleTask(in: timeout) {
            answer.fail(Timeout())
            connection.closeSoon()
        }
        defer { watchdog.cancel() }
        // Written on the connection's own event loop, and only while the connection is open: there PostgresNIO's
        // handler takes the query, and answers it or fails it when the connection goes. A query written to a
        // connection that has closed is dropped with the channel's handlers and never answered, and the pool can
        // lend a connection in the instant it closes, before it has heard so.
        eventLoop.execute {
            guard !connection.isClosed else { return answer.fail(Closed()) }
            connection.query(query, logger: logger).cascade(to: answer)
        }
        return try await answer.futureResult.get()
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
