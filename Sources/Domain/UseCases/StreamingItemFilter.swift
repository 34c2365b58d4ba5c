import Foundation
import Synchronization

/// `ItemShaping` for items that go out while a run goes on (NDJSON, a watch's stream): `--since` per item,
/// and `--dedupe` against the keys seen before in the stream. A date sort cannot stream; callers collect then.
///
/// Streaming cannot take an item back, so the first copy in output order is the one shown (it cannot gain
/// `fields.alsoIn` either). Memory stays bounded: the filter remembers keys in two generations of at most
/// `generationSize` 64-bit hashes each; when the current one is full the older one is forgotten. A repeat is
/// always caught within the last `generationSize` distinct keys, and up to twice as far back: about 8 MiB
/// for 2 × 131,072 keys, whatever the length of the stream (a watch running for weeks). Hashes are Swift's
/// (seeded per process); two different keys colliding in 64 bits among a few hundred thousand is a
/// one-in-10^8 event, in which one item would be left out.
public final class StreamingItemFilter: Sendable {
    private struct Memory {
        var current = Set<Int>()
        var previous = Set<Int>()
    }

    /// The rules applied (a date sort is not: streams cannot reorder).
    public let shaping: ItemShaping
    private let generationSize: Int
    private let memory = Mutex(Memory())

    /// 131,072 keys a generation.
    public static let defaultGenerationSize = 131_072

    /// A filter by `shaping` remembering `generationSize` keys a generation (at least 1).
    public init(_ shaping: ItemShaping, generationSize: Int = StreamingItemFilter.defaultGenerationSize) {
        self.shaping = shaping
        self.generationSize = max(1, generationSize)
    }

    /// The items of a batch that pass: dated after `since`, and not seen before in this stream.
    public func filter(_ items: [Item]) -> [Item] {
        var passing = items
        if let since = shaping.since {
            passing.removeAll { item in item.date.map { $0 <= since } ?? true }
        }
        guard let dedupe = shaping.dedupe, !passing.isEmpty else { return passing }
        let keys = passing.map { ItemIdentity.key(of: $0, by: dedupe).map { $0.hashValue } }
        let fresh: [Bool] = memory.withLock { memory in
            keys.map { key in
                guard let key else { return true }
                if memory.current.contains(key) || memory.previous.contains(key) { return false }
                if memory.current.count >= generationSize {
                    memory.previous = memory.current
                    memory.current = Set(minimumCapacity: generationSize)
                }
                memory.current.insert(key)
                return true
            }
        }
        return zip(passing, fresh).filter(\.1).map(\.0)
    }

    /// How many keys are remembered now (at most twice `generationSize`).
    public var rememberedCount: Int { memory.withLock { $0.current.count + $0.previous.count } }
}
