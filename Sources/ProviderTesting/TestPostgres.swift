import Foundation
import Logging
import NIOPosix
import PostgresNIO

/// The PostgreSQL server the shared-store tests use: the throwaway cluster `.ci/run` starts (see
/// `.ci/postgres-cluster.sh`), named by `AGGREGATE_TEST_POSTGRES_URL`.
///
/// Under CI (`CI=true`) those tests always run, and fail when the variable is missing; elsewhere they are
/// skipped with a message saying how to start a cluster.
public enum TestPostgres {
    public static let variable = "AGGREGATE_TEST_POSTGRES_URL"

    /// The server's URL, if one is configured.
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the PostgreSQL tests run: a server is configured, or this is CI (where a missing one fails).
    public static var shouldRun: Bool {
        serverURL != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// Why they were skipped, for the test's trait.
    public static let skipMessage =
        "no PostgreSQL: run `source .ci/postgres-cluster.sh && postgres_cluster_start` first (CI always runs these)"

    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "\(TestPostgres.variable) is not set (CI must start a PostgreSQL cluster)" }
    }

    /// A new, empty database on the server; returns its URL. Each test gets its own, so tests never share rows.
    public static func makeDatabase() async throws -> String {
        guard let server = serverURL, let components = URLComponents(string: server) else { throw Missing() }
        let name = "aggregate_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await execute("CREATE DATABASE \(name)", on: components)
        var database = components
        database.path = "/" + name
        return database.string!
    }

    /// Runs `sql` on the server's own database (administration: create, terminate).
    public static func administer(_ sql: String) async throws {
        guard let server = serverURL, let components = URLComponents(string: server) else { throw Missing() }
        try await execute(sql, on: components)
    }

    private static func execute(_ sql: String, on url: URLComponents) async throws {
        let configuration = PostgresConnection.Configuration(
            host: url.host ?? "127.0.0.1", port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
            database: String(url.path.dropFirst()).isEmpty ? nil : String(url.path.dropFirst()), tls: .disable)
        let logger = Logger(label: "aggregate.test-postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: logger)
        do {
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
