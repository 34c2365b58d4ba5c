import Domain
import Foundation
import Synchronization

/// The run's items, across its sources: each source's path is its `SourcePipeline` (load → filter →
/// history/archive → sinks → output → report); this type keeps only the ordering of output across sources.
/// `RunEngine` hands it to `AggregateSourcesUseCase` whatever the output.
///
/// Sources come out in the plan's order through an `OrderedHandoff` drained by a thread of its own: the first
/// unfinished source streams, later ones wait their turn, and a fast source waits for a slow writer
/// (back-pressure). The run's outcome comes once the output thread and the history thread (`HistoryWriter`) are
/// done.
final class StreamingRun: ItemStream {
    private let pipelines: [SourcePipeline]
    private let historyWriter: HistoryWriter
    /// Left by the output and the history threads when they are done.
    private let drained = DispatchGroup()

    /// Batches of the source being written that may wait for the writer.
    static let outputCapacity = 8
    /// Held sources' store parts running at once, at most (half of a PostgreSQL store's connections).
    static let storeParts = 4

    /// - Parameters:
    ///   - sources: the plan's sources, in its order.
    ///   - output: receives every item to print and every source's report, in output order, on one thread of
    ///     the run's own.
    ///   - markNew: keep every item but learn which are new to the history (`RunRequest.markNew`; not with
    ///     `newOnly`).
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
        let notes = sources.map { SourceNotes(sourceID: $0.id) }
        let handoff = OrderedHandoff<[Item]>(producers: sources.count, capacity: Self.outputCapacity)
        historyWriter = HistoryWriter(storage: storage, notes: notes, drained: drained)
        let run = SourcePipeline.RunWide(
            storage: storage, query: query, history: newOnly ? .newOnly : markNew ? .markNew : .behind,
            historyWriter: historyWriter, sinks: offer, handoff: handoff,
            storeThreads: BoundedThreads(limit: Self.storeParts, name: "aggregate.store"))
        pipelines = sources.indices.map { index in
            SourcePipeline(
                index: index, descriptor: sources[index], filter: filters.isEmpty ? nil : filters[index],
                notes: notes[index], run: run)
        }
        drained.enter()
        handoff.drain(name: "aggregate.output", { [pipelines = self.pipelines] index, items, more in
            pipelines[index].write(items, more: more, to: output)
        }, finished: { [pipelines = self.pipelines] index in
            pipelines[index].complete(to: output)
        }, done: { [drained] in drained.leave() })
    }

    func source(at index: Int, _ source: SourceDescriptor, didEmit items: [Item]) {
        pipelines[index].emitted(items)
    }

    func source(at index: Int, _ source: SourceDescriptor, didEmitPastCap items: [Item]) {
        pipelines[index].emittedPastCap(items)
    }

    func source(at index: Int, didFinish report: SourceReport) {
        source(at: index, didFinish: report, released: {})
    }

    /// A held source is released once its store part handed its items to the output: items waiting for the store
    /// count against the run's limit on sources loading at once, so loading never runs ahead of the store.
    func source(at index: Int, didFinish report: SourceReport, released: @escaping @Sendable () -> Void) {
        pipelines[index].finished(report, released: released)
    }

    /// The run as printed, once every item was written and the history recorded: every source after the
    /// store's part (its items counted, all of them passed on), and the notes for people, in plan order.
    /// Call when the use case completed.
    func outcome(_ report: AggregateReport, completion: @escaping @Sendable (RunStorage.Outcome) -> Void) {
        historyWriter.finish()
        drained.notify(queue: .global()) { [pipelines = self.pipelines] in
            var finished = report
            finished.sources = report.sources.indices.map { pipelines[$0].report.current ?? report.sources[$0] }
            var newItemIDs: [String: Set<String>] = [:]
            var firstRunIDs: Set<String> = []
            for pipeline in pipelines where pipeline.history.tellsNew {
                newItemIDs[pipeline.descriptor.id] = pipeline.history.newIDs
                if pipeline.history.isFirstRun { firstRunIDs.insert(pipeline.descriptor.id) }
            }
            completion(RunStorage.Outcome(
                report: finished, notes: pipelines.flatMap(\.notes.all), newItemIDs: newItemIDs,
                firstRunIDs: firstRunIDs))
        }
    }
}
