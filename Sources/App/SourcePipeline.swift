import Domain
import Foundation

/// One source's path through a run, read top to bottom in the order its items take:
///
/// 1. **load** (`HoldStage`): the provider's batches arrive (`emitted`). A source that has read no response cache by
///    its first batch (files, programs, `cacheTTLSeconds: 0`) streams: each batch goes on at once. A source that has
///    (HTTP) is held whole until it finishes, because its last good copy may replace what it delivered.
/// 2. **filter** (`FilterStage`): the manifest's filter; what it drops is only counted.
/// 3. **history and archive** (`HistoryStage`): the items are recorded in the item history, which keeps the archive
///    in the same transaction; with `--new` it decides what is shown.
/// 4. **sinks** (`SinkOffer`): every item of this run before `--new` filters it, delivered after the run.
/// 5. **output** (`OutputStage`): the shown items go to the run's ordered hand-off (`StreamingRun`), whose output
///    thread writes them in plan order, behind the sources before this one.
/// 6. **report** (`ReportStage`): on the output thread, once the last batch is written, the source's report is
///    completed once (the store's part, the filter's count, the items written) and handed to the output.
///
/// A held source runs stages 2 to 5 once, on a store thread (never the thread that finished it: a shared pool
/// thread for an HTTP source), after the store's part (`RunStorage.applyCache`), and the run's limit on sources
/// loading at once counts it until its items are handed on.
final class SourcePipeline: Sendable {
    let descriptor: SourceDescriptor
    /// What is said of the source for people, by every stage.
    let notes: SourceNotes
    private let hold: HoldStage
    private let filter: FilterStage
    let history: HistoryStage
    private let sinks: SinkOffer?
    private let output: OutputStage
    let report = ReportStage()
    private let index: Int
    private let storage: RunStorage
    private let query: String?
    private let storeThreads: BoundedThreads

    struct RunWide {
        let storage: RunStorage
        let query: String?
        let history: HistoryStage.Mode
        let historyWriter: HistoryWriter
        let sinks: SinkOffer?
        let handoff: OrderedHandoff<[Item]>
        let storeThreads: BoundedThreads
    }

    init(index: Int, descriptor: SourceDescriptor, filter: (any ItemFilter)?, notes: SourceNotes, run: RunWide) {
        self.index = index
        self.descriptor = descriptor
        self.notes = notes
        self.storage = run.storage
        self.query = run.query
        self.storeThreads = run.storeThreads
        self.sinks = run.sinks
        self.hold = HoldStage(descriptor: descriptor, storage: run.storage)
        self.filter = FilterStage(filter, sourceID: descriptor.id)
        self.history = HistoryStage(
            run.history, index: index, sourceID: descriptor.id, storage: run.storage, writer: run.historyWriter,
            notes: notes)
        self.output = OutputStage(index: index, handoff: run.handoff)
    }

    // MARK: Stages 1 to 5, as the provider's batches come (calls never overlap)

    /// A batch the provider delivered.
    func emitted(_ batch: [Item]) {
        guard hold.streams(batch, pastCap: false) else { return }
        let items = filter.apply(batch)
        guard !items.isEmpty else { return }
        let shown = history.record(items)
        sinks?.take(index, items)
        output.push(shown)
    }

    /// Items past the source's display cap: the history and the sinks see them as they see every item, the output
    /// never does (a held source's wait for its end with the rest).
    func emittedPastCap(_ batch: [Item]) {
        guard hold.streams(batch, pastCap: true) else { return }
        let items = filter.apply(batch)
        guard !items.isEmpty else { return }
        history.recordPastCap(items)
        sinks?.take(index, items)
    }

    /// The provider is done. `released` is called once the pipeline let go of the source's items: at once for a
    /// streamed source, after the store's part for a held one.
    func finished(_ loaded: SourceReport, released: @escaping @Sendable () -> Void) {
        switch hold.finish() {
        case .streamed:
            report.current = loaded
            history.streamEnded()
            output.finish()
            released()
        case .held(let items, let pastCap):
            // Held, or nothing delivered: the store decides as for a whole run, then the items go out whole.
            var held = loaded
            (held.items, held.streamedItemCount) = (items, 0)
            storeThreads.run { [self, held] in
                storePart(held, pastCap: pastCap)
                output.finish()
                released()
            }
        }
    }

    /// On a store thread: a held source's store part, then stages 2 to 5 at once.
    private func storePart(_ loaded: SourceReport, pastCap: [Item]) {
        var storeNotes: [String] = []
        var served = storage.applyCache(to: loaded, query: query, notes: &storeNotes)
        // Only this run's own items have entries past the cap: a last good copy served instead has none. A copy is
        // filtered by today's rules, past-cap entries too (a dropped item is never announced).
        served.items = filter.apply(served.items)
        let ownPastCap = served.status == loaded.status && served.cache != .stale ? filter.apply(pastCap) : []
        let finished = history.recordHeld(served, notes: &storeNotes)
        history.recordPastCap(ownPastCap)  // after the printed items, which tell whether it is a first run
        if !served.items.isEmpty { sinks?.take(index, served.items) }
        if !ownPastCap.isEmpty { sinks?.take(index, ownPastCap) }
        report.current = finished
        notes.append(lines: storeNotes)
        output.push(finished.items, waiting: false)
    }

    // MARK: Stages 5 and 6, on the run's output thread

    /// Writes a batch of the source to `runOutput`, counted.
    func write(_ items: [Item], more: Bool, to runOutput: any RunOutput) {
        output.write(items, of: descriptor, more: more, to: runOutput)
    }

    /// The source's last batch was written: its report completed, once, and handed to `runOutput`.
    func complete(to runOutput: any RunOutput) {
        guard var finished = report.current else { return }
        let written = output.written
        if hold.streamed {
            finished.cache = storage.cacheStatus(of: finished.id)  // a later request may have used the cache
            finished.refreshNotBefore = storage.serverFreshUntil(of: finished.id)
        }
        filter.count(into: &finished)
        (finished.items, finished.streamedItemCount) = ([], written)
        let kept = history.tellsNew ? runOutput.finish(finished, newItemIDs: history.newIDs) : runOutput.finish(finished)
        history.keepNewIDs(of: kept.items)
        report.current = kept
        if hold.streamed, let note = history.firstRunNote(written: written) { notes.append(note) }
    }
}
