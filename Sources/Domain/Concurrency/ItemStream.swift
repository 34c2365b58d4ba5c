/// Takes every source's items while the run goes on, so that the run holds no more of a source than what
/// its taker keeps (the engine's store policy and output: NDJSON into a pipe holds only the batch in hand).
///
/// Without one, `AggregateSourcesUseCase` keeps each source's items in its report until the run ends.
public protocol ItemStream: Sendable {
    /// A batch of source `index` of the plan, in the source's order; the source's report keeps only the
    /// count (`streamedItemCount`). Calls for one source never overlap; calls for different sources may.
    func source(at index: Int, _ source: SourceDescriptor, didEmit items: [Item])

    /// Items of source `index` past its display cap (`ItemReceiver.emitPastCap`): for the item history and the
    /// sinks, never printed. Same threading as `didEmit`.
    func source(at index: Int, _ source: SourceDescriptor, didEmitPastCap items: [Item])

    /// Source `index` is done, whatever its plan (loaded, skipped, failed), before the run completes.
    /// No batch of it comes after this.
    func source(at index: Int, didFinish report: SourceReport)

    /// `source(at:didFinish:)`, with `released` to call once the stream let go of the source's items: at once, or
    /// after work of its own on them (the store's part of a held source). A run with a limit on the sources loading
    /// at once starts the next one only then, so items waiting for that work count against the limit.
    func source(at index: Int, didFinish report: SourceReport, released: @escaping @Sendable () -> Void)
}

extension ItemStream {
    /// A stream that keeps nothing of a finished source releases it at once.
    public func source(at index: Int, didFinish report: SourceReport, released: @escaping @Sendable () -> Void) {
        source(at: index, didFinish: report)
        released()
    }

    /// A stream that only prints has nothing to do with items past a display cap.
    public func source(at index: Int, _ source: SourceDescriptor, didEmitPastCap items: [Item]) {}
}
