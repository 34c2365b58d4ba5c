import Domain
import Foundation
import PostgresStore
import SQLiteStore
import StoreSupport

/// The store a process uses, whichever database is behind it: the SQLite file in the data directory (the
/// default, for one machine) or a PostgreSQL database shared by many processes and machines. Everything that
/// stores something asks it for the repository it needs and never names a database; `StoreLocation.open()`
/// is the one place that builds it.
struct OpenedStore: Sendable {
    var responses: any ResponseCacheStore
    var snapshots: any SourceSnapshotRepository
    var history: any SeenItemsRepository
    /// Every item the history recorded, searchable (`aggregate search`, serve's `/api/items`, the reader APIs).
    var archive: any ItemArchiveRepository
    var queries: @Sendable (_ source: SourceIdentity) -> any MoviesQueriesRepository
    /// The recent queries of every configuration of a source id (its identity cannot be known).
    var queriesOfAnyConfiguration: @Sendable (_ id: String, _ maxCount: Int) throws(SourceError) -> [String]
    var outbox: any SinkOutboxRepository
    /// Statistics and clearing (`aggregate cache|history`).
    var maintenance: any StoreMaintaining
    /// The fleet's schedule (`aggregate worker`): on a shared store only.
    var fleet: (any FleetScheduleRepository)?
    /// The fleet's latest reports (`serve --no-worker`): on a shared store only.
    var fleetReports: (any FleetReportRepository)?
    /// What `aggregate store info` prints: the kind of store, where it is, and for PostgreSQL the server's
    /// version and the schema's migrations (asked of the server).
    var info: @Sendable () throws(SourceError) -> [String]
    /// The newest schema migration applied and whether it is this aggregate's newest (`aggregate doctor`); nil
    /// where opening already brought the schema up to date or failed (PostgreSQL).
    var schema: @Sendable () -> (applied: String?, upToDate: Bool)? = { nil }
    /// Lets go of the connections (PostgreSQL) before the process ends; a SQLite file needs nothing.
    var close: @Sendable () -> Void = {}
    /// Whether other processes share it: then `--new` holds items back rather than show them when the history
    /// cannot be read (another process may announce them).
    var isShared = false

    static func sqlite(_ database: AppDatabase) -> OpenedStore {
        OpenedStore(
            responses: SQLiteResponseCacheStore(database: database),
            snapshots: SQLiteSourceSnapshotRepository(database: database),
            history: SQLiteSeenItemsRepository(database: database),
            archive: SQLiteItemArchive(database: database),
            queries: { SQLiteMoviesQueriesRepository(database: database, source: $0) },
            queriesOfAnyConfiguration: { id, maxCount throws(SourceError) in
                try SQLiteMoviesQueriesRepository.recentQueries(database: database, anyConfigurationOf: id, maxCount: maxCount)
            },
            outbox: SQLiteSinkOutboxRepository(database: database),
            maintenance: SQLiteStoreMaintenance(database: database),
            fleet: nil, fleetReports: nil, info: { StoreLocation.sqlite(database.url).summary },
            schema: {
                let version = database.schemaVersion()
                return (version.applied, version.appliedCount == version.known)
            })
    }

    static func postgres(_ database: PostgresStoreDatabase) -> OpenedStore {
        OpenedStore(
            responses: PostgresResponseCacheStore(database: database),
            snapshots: PostgresSourceSnapshotRepository(database: database),
            history: PostgresSeenItemsRepository(database: database),
            archive: PostgresItemArchive(database: database),
            queries: { PostgresMoviesQueriesRepository(database: database, source: $0) },
            queriesOfAnyConfiguration: { id, maxCount throws(SourceError) in
                try PostgresMoviesQueriesRepository.recentQueries(database: database, anyConfigurationOf: id, maxCount: maxCount)
            },
            // One per process: it remembers which sinks this process is sending for.
            outbox: PostgresSinkOutboxRepository(database: database),
            maintenance: PostgresStoreMaintenance(database: database),
            fleet: PostgresFleetSchedule(database: database),
            fleetReports: PostgresFleetReports(database: database),
            info: { () throws(SourceError) in
                let (version, migrations) = try database.describe()
                let url = database.url
                return [
                    "store: PostgreSQL (shared by every process that names it)", "url: \(url.redacted)",
                    "sslmode: \(url.sslMode.rawValue)", "server: PostgreSQL \(version)",
                    "schema: \(migrations.joined(separator: ", ")) (up to date)",
                ]
            },
            close: { database.close() }, isShared: true)
    }
}
