import Domain
import Foundation
import Synchronization

/// The run's items in output order while the run goes on (`--format ndjson`), with the store's part done
/// source by source instead of at the end (`RunStorage.finish`).
///
/// A source that has read no response cache by its first batch (files, programs, `cacheTTLSeconds: 0`)
/// streams: each batch is recorded in the item history (and filtered by `--new`) and passed on at once.
/// A source that has (HTTP) is held until it finishes, because its last good copy may replace what it
/// delivered; then it is passed on whole. Sources come out in the plan's order (`OrderedRelay`): the first
/// unfinished one streams, later ones wait their turn.
///
/// Without `--new` nothing waits for the history: streamed items' ids are gathered into chunks of
/// `historyChunk` and recorded on a queue of their own (at most `maxPendingChunks` behind), while the items
/// are already on their way out.
public final class StreamingRun: ItemStream {
    private struct Source {
        var streams: Bool?
        var held: [Item] = []
        var batches = 0
        var isFirstRun = false
        var shown = 0
        var notes: [String] = []
        var report: SourceReport?
        /// Ids streamed without `--new` and not yet handed to the history queue.
        var unrecorded: [String] = []
    }

    private let storage: RunStorage
    private let query: String?
    private let newOnly: Bool
    private let sources: Mutex<[Source]>
    private let relay: OrderedRelay<[Item]>
    private let historyQueue = DispatchQueue(label: "aggregate.history")
    private let historyPending = DispatchSemaphore(value: StreamingRun.maxPendingChunks)

    /// Ids recorded in the history at once without `--new` (one transaction each).
    static let historyChunk = 16_384
    /// Chunks waiting to be recorded, at most.
    static let maxPendingChunks = 4

    /// - Parameters:
    ///   - sources: the plan's sources, in its order.
    ///   - write: receives every item to print, in output order, never two calls at once.
    public init(
        sources: [SourceDescriptor], storage: RunStorage, query: String?, newOnly: Bool,
        write: @escaping @Sendable (_ sourceID: String, _ items: [Item]) -> Void
    ) {
        self.storage = storage
        self.query = query
        self.newOnly = newOnly
        self.sources = Mutex(Array(repeating: Source(), count: sources.count))
        self.relay = OrderedRelay(producers: sources.count) { index, items in write(sources[index].id, items) }
    }

    /// Every source's items come here; `source(at:_:didEmit:)` decides whether to pass them on or hold them.
    public func streamsItems(of source: SourceDescriptor) -> Bool { true }

    public func source(at index: Int, _ source: SourceDescriptor, didEmit items: [Item]) {
        let streams = sources.withLock { sources in
            if sources[index].streams == nil { sources[index].streams = storage.canStream(source) }
            if sources[index].streams == false { sources[index].held.append(contentsOf: items) }
            return sources[index].streams!
        }
        guard streams else { return }
        if newOnly {
            // What is shown depends on the history: record first, then pass on what is new.
            let shown = record(items, index: index, source: source)
            if !shown.isEmpty { relay.push(shown, from: index) }
        } else {
            relay.push(items, from: index)
            let chunk: [String]? = sources.withLock { sources in
                sources[index].unrecorded.append(contentsOf: items.lazy.map(\.id))
                guard sources[index].unrecorded.count >= Self.historyChunk else { return nil }
                defer { sources[index].unrecorded = [] }
                return sources[index].unrecorded
            }
            if let chunk { markSeen(chunk, index: index, source: source.id) }
        }
    }

    /// Records a chunk of ids on the history queue, waiting first while `maxPendingChunks` are.
    private func markSeen(_ ids: [String], index: Int, source: String) {
        historyPending.wait()
        historyQueue.async { [self] in
            if let note = storage.markSeen(ids, sourceID: source) {
                let line = "\(source): \(note)"
                sources.withLock { sources in
                    if !sources[index].notes.contains(line) { sources[index].notes.append(line) }
                }
            }
            historyPending.signal()
        }
    }

    /// Records a streamed batch in the history; returns the items to show.
    private func record(_ items: [Item], index: Int, source: SourceDescriptor) -> [Item] {
        let recorded = storage.recordSeen(items, sourceID: source.id, newOnly: newOnly)
        sources.withLock { sources in
            if sources[index].batches == 0 {
                sources[index].isFirstRun = recorded.isFirstRun
                if let note = recorded.note { sources[index].notes.append("\(source.id): \(note)") }
            }
            sources[index].batches += 1
            sources[index].shown += recorded.items.count
        }
        return recorded.items
    }

    public func source(at index: Int, didFinish report: SourceReport) {
        let source = sources.withLock { $0[index] }
        var finished = report
        var notes: [String] = []
        if source.streams == true {
            finished.cache = storage.cacheStatus(of: report.id)  // a later request may have used the cache
            if !source.unrecorded.isEmpty { markSeen(source.unrecorded, index: index, source: report.id) }
            if newOnly {
                if source.isFirstRun, report.streamedItemCount > 0 {
                    notes.append("\(report.id): first run with --new: all \(report.streamedItemCount) items are new")
                }
                finished.streamedItemCount = source.shown  // what --new let through
            }
        } else {
            // Held, or nothing delivered: the store decides as for a whole run, then the items go out whole.
            finished.items = source.held
            finished.streamedItemCount = 0
            finished = storage.finish(finished, query: query, newOnly: newOnly, notes: &notes)
            if !finished.items.isEmpty { relay.push(finished.items, from: index) }
            (finished.items, finished.streamedItemCount) = ([], finished.items.count)
        }
        sources.withLock { sources in
            sources[index].held = []
            sources[index].unrecorded = []
            sources[index].report = finished
            sources[index].notes.append(contentsOf: notes)
        }
        relay.finish(index)
    }

    /// The run as printed: every source after the store's part (its items counted, all of them passed on),
    /// and the notes for people, in plan order. Call once the run completed, from a thread that may block.
    public func outcome(_ report: AggregateReport) -> RunStorage.Outcome {
        historyQueue.sync {}  // the last batches' history
        return sources.withLock { sources in
            var finished = report
            finished.sources = report.sources.indices.map { sources[$0].report ?? report.sources[$0] }
            return RunStorage.Outcome(report: finished, notes: sources.flatMap(\.notes))
        }
    }
}
