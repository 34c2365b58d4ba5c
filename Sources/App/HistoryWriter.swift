import Domain
import Foundation
import Synchronization

/// The run's history thread, for items whose recording nothing waits on (no `--new`): streamed items are gathered
/// into chunks of `chunkSize` and recorded by a thread of their own (at most `maxPendingChunks` behind, started by
/// the first chunk), while the items are already on their way out. What is left of each source when it finishes is
/// gathered with other sources' (up to `chunkSize` items or `maxGatheredSources` sources), so a run of many small
/// sources commits a few transactions, not one a source.
final class HistoryWriter: Sendable {
    /// A chunk of the history: the items of one source or more, recorded in one transaction.
    typealias Chunk = [(index: Int, sourceID: String, items: [Item])]

    /// Items recorded in the history at once (one transaction each).
    static let chunkSize = 16_384
    /// Finished sources whose last ids are gathered into one chunk, at most: what a kill can lose of the
    /// history of a run of many small sources (their items were printed; a later `--new` shows them again).
    static let maxGatheredSources = 64
    /// Chunks waiting to be recorded, at most.
    static let maxPendingChunks = 4

    private let storage: RunStorage
    /// Each source's notes (plan order): a chunk that cannot be recorded is said of each of its sources.
    private let notes: [SourceNotes]
    private let chunks = OrderedHandoff<Chunk>(producers: 1, capacity: HistoryWriter.maxPendingChunks)
    /// Finished sources' last items, not yet handed to the thread, and how many that is.
    private let gathered = Mutex<(chunk: Chunk, count: Int)>(([], 0))
    private let started = Mutex(false)
    /// Entered while the thread runs; left when it is done.
    private let drained: DispatchGroup

    init(storage: RunStorage, notes: [SourceNotes], drained: DispatchGroup) {
        self.storage = storage
        self.notes = notes
        self.drained = drained
    }

    /// A chunk to record; waits while `maxPendingChunks` are waiting. Starts the thread on the first one (most runs
    /// never fill one).
    func push(_ chunk: Chunk) {
        let start = started.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        if start {
            drained.enter()
            chunks.drain(name: "aggregate.history", { [self] _, chunk, _ in
                record(chunk)
            }, done: { [drained] in drained.leave() })
        }
        chunks.push(chunk, from: 0)
    }

    /// A finished source's last items: gathered with other sources', handed to the thread once enough are.
    func gather(_ items: [Item], index: Int, sourceID: String) {
        guard !items.isEmpty else { return }
        let chunk: Chunk? = gathered.withLock { gathered in
            gathered.chunk.append((index, sourceID, items))
            gathered.count += items.count
            guard gathered.count >= Self.chunkSize || gathered.chunk.count >= Self.maxGatheredSources else { return nil }
            defer { gathered = ([], 0) }
            return gathered.chunk
        }
        if let chunk { push(chunk) }
    }

    /// The run's end: what is gathered goes to the thread, however little, and the thread ends when it is done.
    func finish() {
        let rest = gathered.withLock { gathered in
            defer { gathered = ([], 0) }
            return gathered.chunk
        }
        if !rest.isEmpty { push(rest) }
        chunks.finish(0)
    }

    /// On the history thread: records a chunk; a failure becomes one note per source.
    private func record(_ chunk: Chunk) {
        let failures = storage.markSeen(chunk.map { ($0.sourceID, $0.items) })
        guard !failures.isEmpty else { return }
        for (index, sourceID, _) in chunk {
            if let note = failures[sourceID] { notes[index].appendOnce(note) }
        }
    }
}
