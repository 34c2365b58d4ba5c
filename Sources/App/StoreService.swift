import Domain
import Foundation
import ProviderKit
import SQLiteStore

/// `aggregate cache` and `aggregate history`: the store's statistics and clearing, behind the composition
/// root so the executable names no persistence type.
///
/// These commands need no manifest. A `--source` must still name something real: a source the store holds
/// data for, or one the manifest defines (when there is a valid one). Anything else is a slip, refused
/// with the ids there are, instead of clearing nothing and saying so.
public struct StoreService: Sendable {
    let store: OpenedStore
    /// The sinks' outbox (`aggregate sinks`).
    var outbox: any SinkOutboxRepository { store.outbox }

    /// The store's one name for messages (`StoreLocation.displayName`): the SQLite file's path, or the
    /// PostgreSQL URL without its password.
    public let location: String

    /// Opens the store: the shared one `AGGREGATE_STORE` or the manifest's `store.url` names (`manifestURL`:
    /// read when it is a valid manifest), else the SQLite file in the data directory (`$AGGREGATE_HOME`, …),
    /// recovering from a damaged file; nil when there is no usable store. The warnings are for stderr.
    public static func open(
        manifestAt manifestURL: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (service: StoreService?, warnings: [String], location: String) {
        let location = StoreLocation.resolve(manifestAt: manifestURL, environment: environment)
        let place = location.displayName
        let (store, warnings) = location.open()
        return (store.map { StoreService(store: $0, location: place) }, warnings, place)
    }

    /// The fleet's workers and schedule (`aggregate fleet status`); nil for the SQLite store, which has no fleet.
    /// - Parameter recentSeconds: workers seen within this long are listed.
    public func fleetStatus(recentSeconds: Double) throws(SourceError) -> FleetStatus? {
        try store.fleet?.status(recentSeconds: recentSeconds)
    }

    /// Refuses a `--source` that is neither in the store nor among `manifestSources`.
    public func check(source: String?, manifestSources: [String]) throws(StoreSelectionError) {
        guard let source, !manifestSources.contains(source) else { return }
        let stored: [String]
        do throws(SourceError) {
            stored = try store.maintenance.stats(sourceID: nil, now: Date()).map(\.sourceID)
        } catch {
            throw .storeUnreadable(error.message)
        }
        guard !stored.contains(source) else { return }
        throw .unknownSource(source, stored: stored, manifest: manifestSources)
    }

    /// The `cache stats` table: a header row and one row per source.
    public func statsRows(source: String?, now: Date = Date()) throws(SourceError) -> [[String]] {
        StoreReport.statsRows(try store.maintenance.stats(sourceID: source, now: now), now: now)
    }

    /// Clears stored responses and last good copies; returns the sentence to print.
    public func clearCache(source: String?) throws(SourceError) -> String {
        StoreReport.cleared(try store.maintenance.clearCache(sourceID: source), cache: true, sourceID: source)
    }

    /// Clears the `--new` history; returns the sentence to print.
    public func clearHistory(source: String?) throws(SourceError) -> String {
        StoreReport.cleared(try store.maintenance.clearHistory(sourceID: source), cache: false, sourceID: source)
    }
}

/// A `--source` of `cache` or `history` that names nothing (exit 64).
public enum StoreSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownSource(String, stored: [String], manifest: [String])
    case storeUnreadable(String)

    public var description: String {
        switch self {
        case .unknownSource(let source, let stored, let manifest):
            let known = Array(Set(stored + manifest)).sorted()
            let holds = stored.isEmpty ? "the store holds no source's data" : "the store holds data of: \(stored.joined(separator: ", "))"
            let defines = manifest.isEmpty ? "" : "; the manifest defines: \(manifest.joined(separator: ", "))"
            return "unknown source '\(source)'\(Suggestion.didYouMean(source, in: known)); \(holds)\(defines)"
        case .storeUnreadable(let message):
            return "the store cannot be read: \(message)"
        }
    }
}
