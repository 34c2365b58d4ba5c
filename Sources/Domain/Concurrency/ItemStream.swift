/// Takes items while the run goes on, for output that starts before every source is done (NDJSON into a
/// pipe): the run then holds no more of a streamed source than the batch in hand.
///
/// Without one, `AggregateSourcesUseCase` keeps each source's items in its report until the run ends.
public protocol ItemStream: Sendable {
    /// Whether `source`'s items come to `source(at:_:didEmit:)` as they arrive, its report keeping only
    /// their count (`streamedItemCount`), or stay in its report as usual.
    func streamsItems(of source: SourceDescriptor) -> Bool

    /// A batch of streamed source `index` of the plan, in the source's order. Calls for one source never
    /// overlap; calls for different sources may.
    func source(at index: Int, _ source: SourceDescriptor, didEmit items: [Item])

    /// Source `index` is done, whatever its plan (loaded, skipped, failed), before the run completes.
    /// No batch of it comes after this.
    func source(at index: Int, didFinish report: SourceReport)
}
