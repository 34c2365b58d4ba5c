import Domain
import Foundation
import PostgresStore
import ProviderKit
import ProviderTesting
import SQLiteStore
import Testing

/// Which store a contract test runs against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    /// SQLite always; PostgreSQL when a server is configured, and always under CI (where a missing one fails).
    static var available: [StoreKind] { TestPostgres.shouldRun ? [.sqlite, .postgres] : [.sqlite] }
}

/// One store, opened for a test: the same repositories whichever database is behind them. `reopen()` gives
/// another connection to the same database (another process, as far as the store can tell).
struct StoreUnderTest: Sendable {
    let kind: StoreKind
    let responses: any ResponseCacheStore
    let snapshots: any SourceSnapshotRepository
    let history: any SeenItemsRepository
    let archive: any ItemArchiveRepository
    let outbox: any SinkOutboxRepository
    let queries: @Sendable (SourceIdentity) -> any MoviesQueriesRepository
    let queriesOfAnyConfiguration: @Sendable (String, Int) throws -> [String]
    let reopen: @Sendable () throws -> StoreUnderTest

    static func make(_ kind: StoreKind) async throws -> StoreUnderTest {
        switch kind {
        case .sqlite:
            let url = ScratchDirectory.path("aggregate-contract").appendingPathComponent("aggregate.sqlite")
            return try sqlite(url)
        case .postgres:
            let url = try await TestPostgres.makeDatabase()
            return try await blocking { try postgres(url) }
        }
    }

    private static func sqlite(_ url: URL) throws -> StoreUnderTest {
        let database = try AppDatabase.open(at: url)
        return StoreUnderTest(
            kind: .sqlite, responses: SQLiteResponseCacheStore(database: database),
            snapshots: SQLiteSourceSnapshotRepository(database: database), history: SQLiteSeenItemsRepository(database: database),
            archive: SQLiteItemArchive(database: database), outbox: SQLiteSinkOutboxRepository(database: database),
            queries: { SQLiteMoviesQueriesRepository(database: database, source: $0) },
            queriesOfAnyConfiguration: {
                try SQLiteMoviesQueriesRepository.recentQueries(database: database, anyConfigurationOf: $0, maxCount: $1)
            },
            reopen: { try sqlite(url) })
    }

    static func postgres(_ text: String) throws -> StoreUnderTest {
        let database = try PostgresStoreDatabase.open(try PostgresStoreURL(text))
        return StoreUnderTest(
            kind: .postgres, responses: PostgresResponseCacheStore(database: database),
            snapshots: PostgresSourceSnapshotRepository(database: database),
            history: PostgresSeenItemsRepository(database: database), archive: PostgresItemArchive(database: database),
            outbox: PostgresSinkOutboxRepository(database: database),
            queries: { PostgresMoviesQueriesRepository(database: database, source: $0) },
            queriesOfAnyConfiguration: {
                try PostgresMoviesQueriesRepository.recentQueries(database: database, anyConfigurationOf: $0, maxCount: $1)
            },
            reopen: { try postgres(text) })
    }
}

extension SourceIdentity {
    /// An identity for tests: the id and a fingerprint derived from it.
    static func testing(_ id: String) -> SourceIdentity { SourceIdentity(id: id, fingerprint: "fp-\(id)") }
}

func sinkItems(_ ids: [String], source: String = "news") -> [SinkItem] {
    ids.map { SinkItem(source: source, item: Item(kind: .record, id: $0, title: "T \($0)")) }
}
