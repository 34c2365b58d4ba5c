import Domain
import Foundation
import PostgresStore
import ProviderKit
import SQLiteStore

/// The store a process uses, whichever database is behind it: the SQLite file in the data directory (the
/// default, for one machine) or a PostgreSQL database shared by many processes and machines. Everything that
/// stores something asks it for the repository it needs and never names a database.
struct OpenedStore: Sendable {
    var responses: any ResponseCacheStore
    var snapshots: any SourceSnapshotRepository
    var history: any SeenItemsRepository
    var queries: @Sendable (_ source: SourceIdentity) -> any MoviesQueriesRepository
    /// The recent queries of every configuration of a source id (its identity cannot be known).
    var queriesOfAnyConfiguration: @Sendable (_ id: String, _ maxCount: Int) throws(SourceError) -> [String]
    var outbox: any SinkOutboxRepository
    /// The fleet's schedule (`aggregate worker`): on a shared store only.
    var fleet: (any FleetScheduleRepository)?
    /// Names the store in keys for work on it (a file path, or the URL without its password).
    var key: String
    /// Whether other processes share it: then `--new` holds items back rather than show them when the history
    /// cannot be read (another process may announce them).
    var isShared = false

    static func sqlite(_ database: AppDatabase) -> OpenedStore {
        OpenedStore(
            responses: SQLiteResponseCacheStore(database: database),
            snapshots: SQLiteSourceSnapshotRepository(database: database),
            history: SQLiteSeenItemsRepository(database: database),
            queries: { SQLiteMoviesQueriesRepository(database: database, source: $0) },
            queriesOfAnyConfiguration: { id, maxCount throws(SourceError) in
                try SQLiteMoviesQueriesRepository.recentQueries(database: database, anyConfigurationOf: id, maxCount: maxCount)
            },
            outbox: SQLiteSinkOutboxRepository(database: database),
            fleet: nil, key: database.url.path)
    }

    static func postgres(_ database: PostgresStoreDatabase) -> OpenedStore {
        OpenedStore(
            responses: PostgresResponseCacheStore(database: database),
            snapshots: PostgresSourceSnapshotRepository(database: database),
            history: PostgresSeenItemsRepository(database: database),
            queries: { PostgresMoviesQueriesRepository(database: database, source: $0) },
            queriesOfAnyConfiguration: { id, maxCount throws(SourceError) in
                try PostgresMoviesQueriesRepository.recentQueries(database: database, anyConfigurationOf: id, maxCount: maxCount)
            },
            // One per process: it remembers which sinks this process is sending for.
            outbox: PostgresSinkOutboxRepository(database: database),
            fleet: PostgresFleetSchedule(database: database), key: database.url.redacted, isShared: true)
    }
}

/// Where the store is, as the environment and the manifest say: `AGGREGATE_STORE`, else the manifest's
/// `store.url` (`${VAR}`s substituted), else the SQLite file in the data directory.
enum StoreLocation: Sendable, Hashable {
    case sqlite(URL)
    case postgres(PostgresStoreURL)
    /// A store was asked for that cannot be used; the message names no password.
    case invalid(String)

    /// The store a command uses that may have a manifest: its `store.url` counts when the file is a valid
    /// manifest; a missing or invalid one leaves `AGGREGATE_STORE` and the data directory.
    static func resolve(manifestAt manifest: URL?, environment: [String: String]) -> StoreLocation {
        let storeURL = manifest.flatMap {
            try? ManifestLoader.loadCollecting(from: $0, providers: ProviderRegistry.builtIn.names).0.storeURL
        }
        return resolve(manifestURL: storeURL, environment: environment)
    }

    static func resolve(manifestURL: String?, environment: [String: String]) -> StoreLocation {
        var text: String?
        if let value = environment["AGGREGATE_STORE"], !value.isEmpty {
            text = value
        } else if let manifestURL {
            let resolved = EnvironmentSubstitution.apply(to: .string(manifestURL), environment: environment)
            guard resolved.missing.isEmpty else {
                let names = resolved.missing.map { "$\($0)" }.joined(separator: ", ")
                return .invalid("the manifest's store.url needs environment variable \(names), which is not set")
            }
            text = resolved.value.stringValue
        }
        guard let text else { return .sqlite(DataDirectory.resolve(environment: environment).databaseURL) }
        guard PostgresStoreURL.isPostgres(text) else {
            return .invalid("the store must be a postgres://user@host:port/database URL")
        }
        do throws(SourceError) {
            return .postgres(try PostgresStoreURL(text, environment: environment))
        } catch {
            return .invalid(error.message)
        }
    }

    /// Whether several processes share it (then a run may not go on without it unless told to).
    var isShared: Bool {
        if case .sqlite = self { false } else { true }
    }

    /// For messages and keys: a path or a URL without its password.
    var description: String {
        switch self {
        case .sqlite(let url): url.path
        case .postgres(let url): url.redacted
        case .invalid: "the configured store"
        }
    }
}
