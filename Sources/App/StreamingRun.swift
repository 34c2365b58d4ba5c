import Domain
import Foundation
import Synchronization

/// The one path of every run's items: the store's part, source by source while the run goes on, then the
/// run's `RunOutput` in plan order. `RunEngine` hands it to `AggregateSourcesUseCase` whatever the output.
///
/// A source that has read no response cache by its first batch (files, programs, `cacheTTLSeconds: 0`)
/// streams: each batch is recorded in the item history (and filtered by `--new`) and passed on at once.
/// A source that has (HTTP) is held until it finishes, because its last good copy may replace what it
/// delivered; then its store part (`RunStorage.applyCache`, then `applyHistory`) runs on one of the run's
/// `storeThreads`, beside other held sources' (each waits on the store's round trips, not on the others), and it
/// is passed on whole. Sources come out in the plan's order through an `OrderedHandoff` drained by a thread of its
/// own: the first unfinished source streams, later ones wait their turn, and a fast source waits for a slow writer
/// (back-pressure). A source's report is completed there once, after its last batch: the store's part, the filter's
/// count and the count of items written (`streamedItemCount`), then the output has it.
///
/// Without `--new` nothing waits for the history: streamed items are gathered into chunks of
/// `historyChunk` and recorded by a thread of their own (at most `maxPendingChunks` behind, started by the
/// first chunk), while the items are already on their way out. What is left of each source when it finishes
/// is gathered with other sources' (up to `historyChunk` items or `maxGatheredSources` sources), so a run of
/// many small sources commits a few transactions, not one a source.
final class StreamingRun: ItemStream {
    private struct Source {
        var streams: Bool?
        var held: [Item] = []
        /// A held source's items past its display cap (`ItemReceiver.emitPastCap`).
        var heldPastCap: [Item] = []
        var batches = 0
        var isFirstRun = false
        /// Items written to the output (on the output thread).
        var written = 0
        var notes: [String] = []
        /// Its report once it finished (a held one's after the store's part), then as the output kept it.
        var report: SourceReport?
        /// Items streamed without `--new` and not yet handed to the history thread.
        var unrecorded: [Item] = []
        /// With `markNew`: the ids the history never saw before; nil once it could not tell.
        var newIDs: Set<String>? = []
        /// What the source's filter dropped so far.
        var filtered = ItemFilterTally()
    }

    private let descriptors: [SourceDescriptor]
    /// Per source (plan order): the manifest's filter, applied before anything else sees its items.
    private let filters: [(any ItemFilter)?]
    private let offer: SinkOffer?
    private let storage: RunStorage
    private let query: String?
    private let newOnly: Bool
    /// Keep every item but learn which are new to the history (`RunRequest.markNew`; not with `newOnly`).
    private let markNew: Bool
    private let sources: Mutex<[Source]>
    private let output: any RunOutput
    /// Batches for the output thread, in plan order.
    private let handoff: OrderedHandoff<[Item]>
    /// Where held sources' store parts run (disk and database reads and writes): never on the thread that finished
    /// the source (a shared pool thread for an HTTP source), and several at once, as the store's connections allow.
    private let storeThreads = BoundedThreads(limit: StreamingRun.storeParts, name: "aggregate.store")
    /// A chunk of the history: the items of one source or more (by plan index), recorded in one transaction.
    private typealias HistoryChunk = [(index: Int, items: [Item])]
    private let history = OrderedHandoff<HistoryChunk>(producers: 1, capacity: StreamingRun.maxPendingChunks)
    /// Finished sources' last items, not yet handed to the history thread, and how many that is.
    private let gathered = Mutex<(chunk: HistoryChunk, count: Int)>(([], 0))
    /// Left by the output and the history threads when they are done.
    private let drained = DispatchGroup()
    private let historyStarted = Mutex(false)

    /// Items recorded in the history at once without `--new` (one transaction each).
    static let historyChunk = 16_384
    /// Finished sources whose last ids are gathered into one chunk, at most: what a kill can lose of the
    /// history of a run of many small sources (their items were printed; a later `--new` shows them again).
    static let maxGatheredSources = 64
    /// Chunks waiting to be recorded, at most.
    static let maxPendingChunks = 4
    /// Batches of the source being written that may wait for the writer.
    static let outputCapacity = 8
    /// Held sources' store parts running at once, at most (half of a PostgreSQL store's connections).
    static let storeParts = 4

    /// - Parameters:
    ///   - sources: the plan's sources, in its order.
    ///   - output: receives every item to print and every source's report, in output order, on one thread of
    ///     the run's own.
    ///   - offer: receives every source's items of this run before `--new` filters them (what the sinks are
    ///     offered): a streaming source's batches as they come, a held one's after the store's part.
    ///   - filters: per source, the manifest's filter (none: every item is kept). A streaming source's batches
    ///     pass it as they come; a held source's items after its last good copy had its part, so a copy served
    ///     instead of a failed load is filtered by today's rules.
    init(
        sources: [SourceDescriptor], storage: RunStorage, query: String?, newOnly: Bool, markNew: Bool = false,
        filters: [(any ItemFilter)?] = [],
        offer: SinkOffer? = nil, output: any RunOutput
    ) {
        self.filters = filters.isEmpty ? Array(repeating: nil, count: sources.count) : filters
        self.offer = offer
        self.descriptors = sources
        self.storage = storage
        self.query = query
        self.newOnly = newOnly
        self.markNew = markNew && !newOnly
        self.sources = Mutex(Array(repeating: Source(), count: sources.count))
        self.output = output
        self.handoff = OrderedHandoff(producers: sources.count, capacity: Self.outputCapacity)
        drained.enter()
        handoff.drain(name: "aggregate.output", { [self] index, items, more in
            write(items, index: index, more: more)
        }, finished: { [self] index in complete(index) }, done: { [drained] in drained.leave() })
    }

    /// On the output thread: a batch to the output, counted.
    private func write(_ items: [Item], index: Int, more: Bool) {
        sources.withLock { $0[index].written += items.count }
        output.write(items, of: descriptors[index], more: more)
    }

    /// The history thread, started by the first chunk (most runs never fill one).
    private func pushHistory(_ chunk: HistoryChunk) {
        let start = historyStarted.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        if start {
            drained.enter()
            history.drain(name: "aggregate.history", { [self] _, chunk, _ in
                recordHistory(chunk)
            }, done: { [drained] in drained.leave() })
        }
        history.push(chunk, from: 0)
    }

    /// A finished source's last items: gathered with other sources', handed to the history thread once enough are.
    private func gatherHistory(_ items: [Item], index: Int) {
        guard !items.isEmpty else { return }
        let chunk: HistoryChunk? = gathered.withLock { gathered in
            gathered.chunk.append((index, items))
            gathered.count += items.count
            guard gathered.count >= Self.historyChunk || gathered.chunk.count >= Self.maxGatheredSources else { return nil }
            defer { gathered = ([], 0) }
            return gathered.chunk
        }
        if let chunk { pushHistory(chunk) }
    }

    /// The run's end: what is gathered goes to the history thread, however little.
    private func flushGatheredHistory() {
        let rest = gathered.withLock { gathered in
            defer { gathered = ([], 0) }
            return gathered.chunk
        }
        if !rest.isEmpty { pushHistory(rest) }
    }

    /// On the history thread: records a chunk of streamed items; a failure becomes one note per source.
    private func recordHistory(_ chunk: HistoryChunk) {
        let notes = storage.markSeen(chunk.map { (descriptors[$0.index].id, $0.items) })
        guard !notes.isEmpty else { return }
        sources.withLock { sources in
            for (index, _) in chunk {
                guard let note = notes[descriptors[index].id] else { continue }
                let line = "\(descriptors[index].id): \(note)"
                if !sources[index].notes.contains(line) { sources[index].notes.append(line) }
            }
        }
    }

    /// The items of the source at `index` its filter keeps (all without one), counted.
    private func filtered(_ items: [Item], index: Int) -> [Item] {
        guard let filter = filters[index], !items.isEmpty else { return items }
        let result = filter.apply(items, source: descriptors[index].id)
        sources.withLock { $0[index].filtered.add(result) }
        return result.kept
    }

    /// Whether the source at `index` streams (decided at its first batch); a held source's `items` are kept
    /// (`pastCap`: apart, for the history and the sinks only).
    private func streams(_ index: Int, _ source: SourceDescriptor, holding items: [Item], pastCap: Bool) -> Bool {
        // Asked before taking this run's lock, so the storage's lock is never taken inside it; the first
        // decision stands.
        let canStream = sources.withLock { $0[index].streams } == nil ? storage.canStream(source) : true
        return sources.withLock { sources in
            let streams = sources[index].streams ?? canStream
            sources[index].streams = streams
            if !streams, pastCap { sources[index].heldPastCap.append(contentsOf: items) }
            if !streams, !pastCap { sources[index].held.append(contentsOf: items) }
            return streams
        }
    }

    func source(at index: Int, _ source: SourceDescriptor, didEmit emitted: [Item]) {
        guard streams(index, source, holding: emitted, pastCap: false) else { return }
        let items = filtered(emitted, index: index)
        guard !items.isEmpty else { return }
        offer?.take(index, items)
        if markNew {
            learnNew(items, index: index)
            handoff.push(items, from: index)
        } else if newOnly {
            // What is shown depends on the history: record first, then pass on what is new.
            let shown = record(items, index: index, source: source)
            if !shown.isEmpty { handoff.push(shown, from: index) }
        } else {
            handoff.push(items, from: index)
            let chunk: [Item]? = sources.withLock { sources in
                sources[index].unrecorded.append(contentsOf: items)
                guard sources[index].unrecorded.count >= Self.historyChunk else { return nil }
                defer { sources[index].unrecorded = [] }
                return sources[index].unrecorded
            }
            if let chunk { pushHistory([(index, chunk)]) }
        }
    }

    /// Items past the source's display cap: the history and the sinks see them as they see every item, the
    /// output never does (a held source's wait for its end with the rest).
    func source(at index: Int, _ source: SourceDescriptor, didEmitPastCap emitted: [Item]) {
        guard streams(index, source, holding: emitted, pastCap: true) else { return }
        let items = filtered(emitted, index: index)
        guard !items.isEmpty else { return }
        offer?.take(index, items)
        recordPastCap(items, index: index)
    }

    /// Records items past the display cap in the history, as their source's printed items are recorded.
    private func recordPastCap(_ items: [Item], index: Int) {
        guard !items.isEmpty else { return }
        let id = descriptors[index].id
        let note: String?
        if markNew {
            note = storage.recordNew(items, sourceID: id).note
        } else if newOnly {
            note = storage.recordSeen(items, sourceID: id, newOnly: true).note
        } else {
            note = storage.markSeen([(id, items)])[id]
        }
        guard let note else { return }
        sources.withLock { sources in
            if !sources[index].notes.contains("\(id): \(note)") { sources[index].notes.append("\(id): \(note)") }
        }
    }

    /// `markNew`: records `items` in the history and keeps which were new.
    private func learnNew(_ items: [Item], index: Int) {
        let id = descriptors[index].id
        let learnt = storage.recordNew(items, sourceID: id)
        sources.withLock { sources in
            if let ids = learnt.ids { sources[index].newIDs?.formUnion(ids) } else { sources[index].newIDs = nil }
            if learnt.isFirstRun { sources[index].isFirstRun = true }  // told by its first batch
            if let note = learnt.note, !sources[index].notes.contains("\(id): \(note)") {
                sources[index].notes.append("\(id): \(note)")
            }
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
        }
        return recorded.items
    }

    func source(at index: Int, didFinish report: SourceReport) {
        source(at: index, didFinish: report, released: {})
    }

    /// A held source is released once its store part handed its items to the output: items waiting for the store
    /// count against the run's limit on sources loading at once, so loading never runs ahead of the store.
    func source(at index: Int, didFinish report: SourceReport, released: @escaping @Sendable () -> Void) {
        let source = sources.withLock { sources in
            defer {
                (sources[index].held, sources[index].heldPastCap, sources[index].unrecorded) = ([], [], [])
                if sources[index].streams == true { sources[index].report = report }
            }
            return sources[index]
        }
        if source.streams == true {
            gatherHistory(source.unrecorded, index: index)
            handoff.finish(index)
            released()
        } else {
            // Held, or nothing delivered: the store decides as for a whole run, then the items go out whole.
            var held = report
            (held.items, held.streamedItemCount) = (source.held, 0)
            storeThreads.run { [self, held, pastCap = source.heldPastCap] in
                let items = finishHeld(held, pastCap: pastCap, index: index)
                if !items.isEmpty { handoff.push(items, from: index, waiting: false) }
                handoff.finish(index)
                released()
            }
        }
    }

    /// On a store thread: a held source's store part; returns its items to write.
    private func finishHeld(_ report: SourceReport, pastCap: [Item], index: Int) -> [Item] {
        var notes: [String] = []
        var served = storage.applyCache(to: report, query: query, notes: &notes)
        // Only this run's own items have entries past the cap: a last good copy served instead has none.
        var ownPastCap = served.status == report.status && served.cache != .stale ? pastCap : []
        if filters[index] != nil {
            // A held source is filtered once, here (past-cap entries too: a dropped item is never announced).
            served.items = filtered(served.items, index: index)
            ownPastCap = filtered(ownPastCap, index: index)
        }
        if !served.items.isEmpty { offer?.take(index, served.items) }
        if !ownPastCap.isEmpty { offer?.take(index, ownPastCap) }
        var finished = served
        if markNew {
            learnNew(served.items, index: index)
        } else {
            finished = storage.applyHistory(to: served, newOnly: newOnly, notes: &notes)
        }
        recordPastCap(ownPastCap, index: index)  // after the printed items, which tell whether it is a first run
        sources.withLock { sources in
            sources[index].report = finished
            sources[index].notes.append(contentsOf: notes)
        }
        return finished.items
    }

    /// On the output thread, once the source's last batch was written: its report completed, once, and handed to
    /// the output.
    private func complete(_ index: Int) {
        let source = sources.withLock { $0[index] }
        guard var finished = source.report else { return }
        var notes: [String] = []
        if source.streams == true {
            finished.cache = storage.cacheStatus(of: finished.id)  // a later request may have used the cache
            finished.refreshNotBefore = storage.serverFreshUntil(of: finished.id)
            if newOnly, source.isFirstRun, source.written > 0 {
                notes.append("\(finished.id): first run with --new: all \(source.written) items are new")
            }
        }
        if filters[index] != nil {
            finished.filteredItemCount = source.filtered.dropped
            if let warning = source.filtered.warning { finished.warnings.append(warning) }
        }
        (finished.items, finished.streamedItemCount) = ([], source.written)
        let kept = markNew ? output.finish(finished, newItemIDs: source.newIDs) : output.finish(finished)
        // The outcome's new ids need only name items the output kept in the report (`NewItems` is what is new of
        // a report's items): an output that counts items rather than keeping them (serve's) would else leave
        // every item's id held until the whole run ends.
        let keptNewIDs = source.newIDs.map { ids in Set(kept.items.lazy.map(\.id).filter(ids.contains)) }
        sources.withLock { sources in
            sources[index].report = kept
            sources[index].newIDs = keptNewIDs
            sources[index].notes.append(contentsOf: notes)
        }
    }

    /// The run as printed, once every item was written and the history recorded: every source after the
    /// store's part (its items counted, all of them passed on), and the notes for people, in plan order.
    /// Call when the use case completed.
    func outcome(_ report: AggregateReport, completion: @escaping @Sendable (RunStorage.Outcome) -> Void) {
        flushGatheredHistory()
        history.finish(0)
        drained.notify(queue: .global()) { [self] in
            completion(sources.withLock { sources in
                var finished = report
                finished.sources = report.sources.indices.map { sources[$0].report ?? report.sources[$0] }
                var newItemIDs: [String: Set<String>] = [:]
                var firstRunIDs: Set<String> = []
                if markNew {
                    for (index, source) in sources.enumerated() { newItemIDs[descriptors[index].id] = source.newIDs }
                    firstRunIDs = Set(sources.indices.filter { sources[$0].isFirstRun }.map { descriptors[$0].id })
                }
                return RunStorage.Outcome(
                    report: finished, notes: sources.flatMap(\.notes), newItemIDs: newItemIDs, firstRunIDs: firstRunIDs)
            })
        }
    }
}
