import Domain
import Foundation
import ProviderKit
import SQLiteStore

// MARK: - Recent queries

extension AppDIContainer {
    /// How many recent queries are kept and listed per source.
    public static let recentQueriesLimit = SQLiteMoviesQueriesRepository.maxStored

    /// The recent search queries of the source named `id` (or of every source whose provider accepts a
    /// query, in manifest order), most recent first, as (source id, query) pairs. Queries are kept per
    /// source identity; a source whose `${VAR}`s are not set here lists those of every configuration of its id.
    public func recentQueries(source id: String?) throws(RecentQueriesError) -> [(source: String, query: String)] {
        let ids: [String]
        do throws(SelectionError) {
            ids = try recentQueriesSources(named: id)
        } catch {
            throw .selection(error)
        }
        let (opened, warnings) = store.open()
        guard let opened else { throw .storeUnavailable(store.location.displayName, warnings: warnings) }
        var rows: [(source: String, query: String)] = []
        for sourceID in ids {
            guard let source = manifest.source(id: sourceID) else { continue }
            let resolved = resolved(source)
            do throws(SourceError) {
                let queries = resolved.missing.isEmpty
                    ? try opened.queries(identity(of: source, options: resolved.value)).recentQueries(maxCount: Self.recentQueriesLimit)
                    : try opened.queriesOfAnyConfiguration(sourceID, Self.recentQueriesLimit)
                rows += queries.map { (sourceID, $0) }
            } catch {
                throw .store(sourceID, error)
            }
        }
        return rows
    }

    /// The sources `aggregate queries` lists: the one named, or every source whose provider accepts a query,
    /// in manifest order.
    func recentQueriesSources(named id: String?) throws(SelectionError) -> [String] {
        let keeping = manifest.sources.filter { registry.provider(named: $0.provider)?.acceptsQuery == true }
        guard let id else { return keeping.map(\.id) }
        let source = try manifest.sources(selectedBy: [id])[0]
        guard keeping.contains(source) else {
            throw .keepsNoQueries("\(source.id) (\(source.provider))", keeping: keeping.map(\.id))
        }
        return [id]
    }
}

/// Why `aggregate queries` could not list.
public enum RecentQueriesError: Error, Sendable, CustomStringConvertible {
    /// `--source` does not fit the manifest (exit 64).
    case selection(SelectionError)
    /// No usable store (exit 1); `warnings` say why.
    case storeUnavailable(String, warnings: [String])
    case store(String, SourceError)

    public var description: String {
        switch self {
        case .selection(let error): error.description
        case .storeUnavailable(let path, _): "the store in \(path) cannot be opened"
        case .store(let id, let error): "\(id): \(error.kind.rawValue): \(error.message)"
        }
    }
}
