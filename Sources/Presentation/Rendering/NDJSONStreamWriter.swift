import Dispatch
import Domain
import Synchronization

/// `--format ndjson` while the run goes on: each batch of items becomes lines as it arrives, so a source of a
/// million rows never has to be held in memory. The lines are exactly `NDJSONRenderer`'s.
///
/// Batches must arrive in output order (sources in manifest order, each in its own order); the run's
/// ordered item stream sees to that. Thread-safe: batches may come from any thread, one at a time.
///
/// Lines are written on a queue of the writer's own, so a source reads its next batch while the last one is
/// written (two cores do twice the work). At most `maxPendingBatches` wait there: a source that reads
/// faster than the output drains is held back in `write` rather than piling batches up in memory.
///
/// Text goes out in chunks of about 64 KiB, and whenever the writer catches up with the sources: a slow
/// source's lines (a program printing one now and then) appear as they come, not 64 KiB later.
public final class NDJSONStreamWriter: Sendable {
    private struct State {
        var shown: [String: Int] = [:]
        /// Batches queued and not yet rendered.
        var queued = 0
        var writer = JSONWriter(capacity: NDJSONStreamWriter.flushThreshold + 4096)
    }

    /// Bytes gathered before they are handed to `output`.
    static let flushThreshold = 64 * 1024

    /// Batches handed over but not written yet, at most.
    static let maxPendingBatches = 8

    private let state = Mutex(State())
    private let limit: Int?
    private let output: @Sendable ([UInt8]) -> Void
    private let queue = DispatchQueue(label: "aggregate.ndjson-writer")
    private let pending = DispatchSemaphore(value: NDJSONStreamWriter.maxPendingBatches)

    /// - Parameters:
    ///   - limit: at most this many items per source (`--limit`); nil writes every item.
    ///   - output: receives the text in order: a chunk when 64 KiB are gathered or no batch is waiting, and
    ///     what is left from `flush()`.
    public init(limit: Int?, output: @escaping @Sendable ([UInt8]) -> Void) {
        self.limit = limit
        self.output = output
    }

    /// Writes the lines of `items`, which `source` delivered, up to the source's limit. Returns once the
    /// batch is queued, waiting first while `maxPendingBatches` are.
    public func write(_ items: [Item], source: String) {
        pending.wait()
        state.withLock { $0.queued += 1 }
        queue.async { [self] in
            render(items, source: source)
            pending.signal()
        }
    }

    private func render(_ items: [Item], source: String) {
        state.withLock { state in
            var shown = items[...]
            if let limit {
                let before = state.shown[source, default: 0]
                shown = items.prefix(max(0, limit - before))
                state.shown[source] = before + shown.count
            }
            NDJSONRenderer.writeLines(shown, source: source, to: &state.writer)
            state.queued -= 1
            if state.writer.bytes.count >= Self.flushThreshold || (state.queued == 0 && !state.writer.bytes.isEmpty) {
                output(state.writer.bytes)
                state.writer.removeAll()
            }
        }
    }

    /// Waits for the queued batches, then hands what is gathered to `output`. Call once the run is over,
    /// from a thread that may block.
    public func flush() {
        queue.sync {}
        state.withLock { state in
            guard !state.writer.bytes.isEmpty else { return }
            output(state.writer.bytes)
            state.writer.removeAll()
        }
    }
}
