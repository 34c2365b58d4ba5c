import Foundation

/// The PostgreSQL server the shared-store tests use: the throwaway cluster `.ci/run` starts (see
/// `.ci/postgres-cluster.sh`), named by `AGGREGATE_TEST_POSTGRES_URL`.
///
/// Under CI (`CI=true`) those tests always run, and fail when the variable is missing; elsewhere they are
/// skipped with a message saying how to start a cluster. Administration goes through `psql` (installed with
/// the server), so test support links no database driver.
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

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A new, empty database on the server; returns its URL. Each test gets its own, so tests never share rows.
    public static func makeDatabase() async throws -> String {
        guard let server = serverURL, var components = URLComponents(string: server) else {
            throw Failure(description: "\(variable) is not set (CI must start a PostgreSQL cluster)")
        }
        let name = "aggregate_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await administer("CREATE DATABASE \(name)")
        components.path = "/" + name
        return components.string!
    }

    /// Runs `sql` with `psql` on the server's own database (administration: create, terminate); returns its
    /// output, unaligned and without headers.
    @discardableResult
    public static func administer(_ sql: String) async throws -> String {
        guard let server = serverURL else { throw Failure(description: "\(variable) is not set") }
        let psql = ["/usr/bin/psql", "/usr/local/bin/psql"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let psql else { throw Failure(description: "psql is not installed (apt-get install postgresql-client)") }
        var environment = ProcessInfo.processInfo.environment
        environment["PGCONNECT_TIMEOUT"] = "10"
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: psql), [server, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql], environment: environment)
        guard result.status == 0 else { throw Failure(description: "psql failed: \(result.stderr)") }
        return result.stdout
    }
}
