import Domain
import Synchronization

/// One source's options as every part of a run reads them: its `${VAR}`s substituted from the container's
/// environment and its secret references found, not read (`SecretResolvingSource` reads them as the source loads).
struct ResolvedOptions: Sendable {
    /// The options with every `${VAR}` substituted.
    let value: JSONValue
    /// The `${VAR}`s without a default that are not set, in first-use order.
    let missing: [String]
    /// The secret options given by reference, and the malformed ones.
    let references: SecretReferences

    /// `value` with a placeholder string for each reference: what validation builds the source with.
    var placeholders: JSONValue { references.placeholders(in: value) }
}

/// Each source's `ResolvedOptions`, worked out the first time validation, a plan or a listing asks, then kept for
/// the container's life: its manifest and environment never change (a reloaded manifest is a new container).
final class ResolvedOptionsCache: Sendable {
    /// A source by its place in the manifest and its id (a manifest put together by hand may repeat a place).
    private struct Key: Hashable {
        var index: Int
        var id: String
    }

    private struct State {
        var table: [Key: ResolvedOptions] = [:]
        /// How many times a source was resolved.
        var resolutions = 0
    }

    private let state = Mutex(State())

    /// The options of `source`, from `resolve` the first time.
    func options(of source: Manifest.Source, resolve: () -> ResolvedOptions) -> ResolvedOptions {
        let key = Key(index: source.index, id: source.id)
        if let known = state.withLock({ $0.table[key] }) { return known }
        // Worked out outside the lock; two runs planning the source at the same moment both do, and keep the first.
        let fresh = resolve()
        return state.withLock { state in
            state.resolutions += 1
            if let first = state.table[key] { return first }
            state.table[key] = fresh
            return fresh
        }
    }

    /// How many times a source was resolved: each once (twice only when two runs raced to the same source).
    var count: Int { state.withLock { $0.resolutions } }
}
