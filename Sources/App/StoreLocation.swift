import Domain
import Foundation
import PostgresStore
import ProviderKit
import SQLiteStore

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

    /// The store's one name, for messages and for keys of work on it (a sink's lane): the SQLite file's path,
    /// or the URL without its password.
    var displayName: String {
        switch self {
        case .sqlite(let url): url.path
        case .postgres(let url): url.redacted
        case .invalid: "the configured store"
        }
    }

    /// The first lines of `aggregate store info`, known without opening the store (all of it for SQLite; an
    /// opened PostgreSQL store says more, `OpenedStore.info`).
    var summary: [String] {
        switch self {
        case .sqlite(let url): ["store: SQLite (one machine)", "file: \(url.path)"]
        case .postgres(let url): ["store: PostgreSQL", "url: \(url.redacted)"]
        case .invalid: []
        }
    }

    /// Opens the store: the SQLite file, recovering from a damaged one (its warnings are for people), or a
    /// connection to the PostgreSQL database, which creates or upgrades the schema. Nil when there is no usable
    /// store; then a shared or invalid one's only warning is why, without a password. Without `recovering` (a
    /// check, `aggregate doctor`) a damaged SQLite file is left where it is and only reported.
    func open(recovering: Bool = true) -> (store: OpenedStore?, warnings: [String]) {
        switch self {
        case .sqlite(let url) where !recovering:
            do {
                return (OpenedStore.sqlite(try AppDatabase.open(at: url)), [])
            } catch {
                return (nil, ["the store at \(url.path) cannot be opened"])
            }
        case .sqlite(let url):
            let (database, warnings) = AppDatabase.openRecovering(at: url)
            return (database.map(OpenedStore.sqlite), warnings)
        case .postgres(let url):
            do throws(SourceError) {
                return (OpenedStore.postgres(try PostgresStoreDatabase.open(url)), [])
            } catch {
                return (nil, [error.message])
            }
        case .invalid(let message):
            return (nil, [message])
        }
    }
}
