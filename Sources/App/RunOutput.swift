import Domain
import Synchronization

/// Where a run's items go, and what the run's report keeps of them: the run engine's one output.
///
/// The engine calls it on one thread of the run's own, which may block (stdout), in output order: for each
/// source in plan order, its batches (each source's own order), then its report; once every source is done, the
/// run's report. Each report counts the items written for its source (`SourceReport.streamedItemCount`) and holds
/// none; what `finish` returns is what the run keeps. Collecting the items into the reports (`CollectedOutput`)
/// and writing them out as they come (`StreamedOutput`) are two such outputs; a front end may write its own.
public protocol RunOutput: Sendable {
    /// A batch of `source`'s items, after the store's part, `--new` and the manifest's filter. `more`: another
    /// batch is ready right now (a writer may gather before flushing).
    func write(_ items: [Item], of source: SourceDescriptor, more: Bool)

    /// A source is done and its last batch written: its report, once, as the run will keep it.
    func finish(_ source: SourceReport) -> SourceReport

    /// `finish(_:)` in a run that learns which items are new (`RunRequest.markNew`): `newItemIDs` are those of the
    /// source's items the item history never saw (nil: it could not tell), so an output may keep only those.
    func finish(_ source: SourceReport, newItemIDs: Set<String>?) -> SourceReport

    /// Every source is done: the run's report (sources in manifest order) as its outcome will hold it.
    func finish(run report: AggregateReport) -> AggregateReport
}

extension RunOutput {
    /// A writer keeps the counts the engine gave.
    public func finish(_ source: SourceReport) -> SourceReport { source }
    public func finish(_ source: SourceReport, newItemIDs: Set<String>?) -> SourceReport { finish(source) }
    public func finish(run report: AggregateReport) -> AggregateReport { report }
}

/// Keeps each source's items in its report, then shapes the report as one (`ShapeItemsUseCase`: `--since`,
/// `--dedupe`, a date sort across every source): for every front end that needs all the items first (the table,
/// JSON with `--jq`, a template, watch's screen, serve, the fleet). One output per run.
public final class CollectedOutput: RunOutput {
    private let shaping: ItemShaping
    /// The items of the source being written (sources come one after another).
    private let pending = Mutex<[Item]>([])

    public init(_ shaping: ItemShaping = ItemShaping()) {
        self.shaping = shaping
    }

    public func write(_ items: [Item], of source: SourceDescriptor, more: Bool) {
        pending.withLock { $0.append(contentsOf: items) }
    }

    public func finish(_ source: SourceReport) -> SourceReport {
        var kept = source
        kept.items = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        kept.streamedItemCount = 0
        return kept
    }

    public func finish(run report: AggregateReport) -> AggregateReport {
        ShapeItemsUseCase(shaping).execute(report)
    }
}

/// Hands every batch to `write` as it comes, after `--since` and `--dedupe` (`StreamingItemFilter`); the reports
/// keep only their counts. One output may serve every run of a stream (a watch): its dedupe then spans them.
public final class StreamedOutput: RunOutput {
    private let filter: StreamingItemFilter?
    private let writer: @Sendable (_ source: SourceDescriptor, _ items: [Item], _ more: Bool) -> Void

    /// - Parameter shaping: its order is left to `write`: items come in each source's own order.
    public init(
        _ shaping: ItemShaping = ItemShaping(),
        write: @escaping @Sendable (_ source: SourceDescriptor, _ items: [Item], _ more: Bool) -> Void
    ) {
        self.filter = shaping.isIdentity ? nil : StreamingItemFilter(shaping)
        self.writer = write
    }

    public func write(_ items: [Item], of source: SourceDescriptor, more: Bool) {
        writer(source, filter?.filter(items) ?? items, more)
    }
}
