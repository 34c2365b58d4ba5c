import Foundation

/// The PostgreSQL server the shared-store tests use: the throwaway cluster `.ci/run` starts (see
/// `.ci/postgres-cluster.sh`), named by `AGGREGATE_TEST_POSTGRES_URL`.
///
/// Under CI (`CI=true`) those tests always run, and fail when the variable is missing; elsewhere they are
/// skipped with a message saying how to start a cluster. Administration goes through `psql` (installed with
/// the server), so test support links no database driver.
public enum TestPostgres {
    /// `AGGREGATE_TEST_POSTGRES_URL`: the environment variable naming the server the tests use.
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

    /// The server could not be reached or administered.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, without the URL's password.
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

/// A PostgreSQL cluster of one test's own (`.ci/postgres-cluster.sh`), for what must not disturb the shared test
/// server: restarting it under a running program.
public struct TestPostgresCluster: Sendable {
    /// The `postgres` database's URL.
    public let url: String
    private let directory: String
    private let binaries: String

    private static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".ci/postgres-cluster.sh").path
    }

    /// Runs `command` after sourcing the script, with `popen` on a thread of its own: `Process` did not see the
    /// shell exit once it had started a server through `runuser` (its wait spun), `pclose` does.
    private static func bash(_ command: String, environment extra: [String: String] = [:]) async throws -> String {
        // The command goes in a file of its own, so no shell quoting stands between it and bash.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-pg-\(UUID().uuidString).sh")
        let exports = extra.map { "export \($0.key)='\($0.value)'\n" }.joined()
        try Data((exports + "source '\(script)'\n" + command + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // popen's shell inherits every descriptor the test process has open without close-on-exec (hundreds in a
        // parallel run); `runuser` then applies the postgres user's 1024-descriptor limit and the server, counting
        // them, refused to start ("System allows 37, we need at least 58"). A first bash closes them all but
        // stdin, stdout and stderr, then becomes the one that runs the script.
        let closeInherited = #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null; exec bash "$0""#
        let line = "bash -c '\(closeInherited)' '\(file.path)' 2>&1"
        let (status, output) = try await blocking { () throws -> (Int32, String) in
            guard let pipe = popen(line, "r") else { throw TestPostgres.Failure(description: "popen failed") }
            var output = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            // To the end of the output, on the descriptor itself: a read that a signal interrupts (EINTR) is tried
            // again, so the pipe is never closed under a script that is still writing (it would die of SIGPIPE).
            let descriptor = fileno(pipe)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count > 0 {
                    output.append(contentsOf: buffer[0..<count])
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            return (pclose(pipe), String(decoding: output, as: UTF8.self))
        }
        guard status == 0 else {
            throw TestPostgres.Failure(description: "postgres-cluster (wait status \(status)): \(output)")
        }
        return output
    }

    /// - Parameter options: more server options (`-c ssl=on …`); paths in them must be readable by `postgres`.
    public static func start(options: String = "") async throws -> TestPostgresCluster {
        let export = options.isEmpty ? "" : "export POSTGRES_CLUSTER_OPTIONS='\(options)'\n"
        let output = try await bash(export +
            #"postgres_cluster_start >/dev/null && echo "cluster=$AGGREGATE_TEST_POSTGRES_URL|$AGGREGATE_TEST_POSTGRES_DIR|$AGGREGATE_TEST_POSTGRES_BIN""#)
        let line = output.split(separator: "\n").last { $0.hasPrefix("cluster=") }.map { String($0.dropFirst(8)) } ?? ""
        let parts = line.split(separator: "|").map(String.init)
        guard parts.count == 3 else { throw TestPostgres.Failure(description: "postgres-cluster said: \(output)") }
        return TestPostgresCluster(url: parts[0], directory: parts[1], binaries: parts[2])
    }

    private var environment: [String: String] {
        ["AGGREGATE_TEST_POSTGRES_DIR": directory, "AGGREGATE_TEST_POSTGRES_BIN": binaries]
    }

    /// Restarts the server: every open connection is cut.
    public func restart() async throws {
        _ = try await Self.bash("postgres_cluster_restart", environment: environment)
    }

    /// Stops the server, keeping its data: connections are refused until `resume`.
    public func pause() async throws {
        _ = try await Self.bash("postgres_cluster_pause", environment: environment)
    }

    /// Starts a paused server again, on the same port.
    public func resume() async throws {
        _ = try await Self.bash("postgres_cluster_resume", environment: environment)
    }

    /// Stops the cluster at once and removes its files.
    public func stop() async {
        _ = try? await Self.bash("postgres_cluster_stop", environment: environment)
    }
}
