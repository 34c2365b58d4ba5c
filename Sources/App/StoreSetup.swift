import Domain
import Foundation
import PostgresStore
import SQLiteStore

/// `aggregate store info|migrate`: which store this environment and manifest point at, opened (which creates
/// or upgrades its schema) and described, without running anything. Nothing printed holds a password.
public enum StoreSetup {
    /// What to print, and whether the store could be used.
    public struct Report: Sendable {
        /// For stdout.
        public var lines: [String]
        /// For stderr: why the store cannot be used, warnings.
        public var problems: [String] = []
        public var ok: Bool
    }

    /// - Parameter manifestURL: the manifest's `store.url` is read when it is a valid manifest; nil or invalid
    ///   leaves `AGGREGATE_STORE` and the data directory.
    public static func describe(
        manifestAt manifestURL: URL?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Report {
        switch StoreLocation.resolve(manifestAt: manifestURL, environment: environment) {
        case .sqlite(let url):
            let (database, warnings) = AppDatabase.openRecovering(at: url)
            return Report(
                lines: ["store: SQLite (one machine)", "file: \(url.path)"], problems: warnings, ok: database != nil)
        case .postgres(let url):
            do throws(SourceError) {
                let database = try PostgresStoreDatabase.open(url)
                defer { database.close() }
                let (version, migrations) = try database.describe()
                return Report(lines: [
                    "store: PostgreSQL (shared by every process that names it)", "url: \(url.redacted)",
                    "sslmode: \(url.sslMode.rawValue)", "server: PostgreSQL \(version)",
                    "schema: \(migrations.joined(separator: ", ")) (up to date)",
                ], ok: true)
            } catch {
                return Report(lines: ["store: PostgreSQL", "url: \(url.redacted)"], problems: [error.message], ok: false)
            }
        case .invalid(let message):
            return Report(lines: [], problems: [message], ok: false)
        }
    }
}
