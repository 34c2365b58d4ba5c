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
    private let resolved = Mutex<[Int: ResolvedOptions]>([:])
    private let resolutions = Atomic<Int>(0)

    /// The options of the source at `index` of the manifest, from `resolve` the first time.
    func options(ofSourceAt index: Int, resolve: () -> ResolvedOptions) -> ResolvedOptions {
        if let known = resolved.withLock({ $0[index] }) { return known }
        // Worked out outside the lock; two runs planning the source at the same moment both do, and keep the first.
        let fresh = resolve()
        resolutions.add(1, ordering: .relaxed)
        return resolved.withLock { table in
            if let first = table[index] { return first }
            table[index] = fresh
            return fresh
        }
    }

    /// How many times a source was resolved: each once (twice only when two runs raced to the same source).
    var count: Int { resolutions.load(ordering: .relaxed) }
}
