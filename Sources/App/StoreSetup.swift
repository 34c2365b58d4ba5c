import Domain
import Foundation

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
        let location = StoreLocation.resolve(manifestAt: manifestURL, environment: environment)
        let (opened, warnings) = location.open()
        guard let store = opened else { return Report(lines: location.summary, problems: warnings, ok: false) }
        defer { store.close() }
        do throws(SourceError) {
            return Report(lines: try store.info(), problems: warnings, ok: true)
        } catch {
            return Report(lines: location.summary, problems: warnings + [error.message], ok: false)
        }
    }
}
