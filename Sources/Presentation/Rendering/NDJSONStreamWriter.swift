import Domain
import Synchronization

/// `--format ndjson` while the run goes on: each batch of items becomes lines as it arrives, so a source of a
/// million rows never has to be held in memory. The lines are exactly `NDJSONRenderer`'s.
///
/// Batches must arrive in output order (sources in manifest order, each in its own order), one at a time:
/// the run engine hands them over from its output thread, where rendering runs while the sources read their
/// next batches (two cores do twice the work), and a source that reads faster than stdout drains is held
/// back by the engine's hand-off, not here.
///
/// Text goes out in chunks of about 64 KiB, and whenever the writer catches up with the sources (`more`
/// false): a slow source's lines (a program printing one now and then) appear as they come, not 64 KiB later.
///
/// With `--jq` each line is the input of the filter, and what it prints replaces the line (`jq -rc` over the
/// lines, item by item): an error in one item is reported and the next item goes on, as jq does; `halt`
/// ends the output.
public final class NDJSONStreamWriter: Sendable {
    private struct State {
        var shown: [String: Int] = [:]
        var writer = JSONWriter(capacity: NDJSONStreamWriter.flushThreshold + 4096)
        /// One item's line, the filter's input.
        var line = JSONWriter(capacity: 4096)
        var written = 0
        var halted = false
    }

    /// Bytes gathered before they are handed to `output`.
    static let flushThreshold = 64 * 1024

    private let state = Mutex(State())
    private let limit: Int?
    private let jq: JQFilter?
    private let onFailure: @Sendable (JQFilter.Failure, _ item: Int) -> Void
    private let output: @Sendable ([UInt8]) -> Void

    /// - Parameters:
    ///   - limit: at most this many items per source (`--limit`); nil writes every item.
    ///   - jq: `--jq`, applied to each item (compile it `compact`).
    ///   - onFailure: told of each item the filter failed on (its 1-based number in the output), outside the lock.
    ///   - output: receives the text in order: a chunk when 64 KiB are gathered or no batch is waiting, and
    ///     what is left from `flush()`.
    public init(
        limit: Int?, jq: JQFilter? = nil,
        onFailure: @escaping @Sendable (JQFilter.Failure, _ item: Int) -> Void = { _, _ in },
        output: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.limit = limit
        self.jq = jq
        self.onFailure = onFailure
        self.output = output
    }

    /// Writes the lines of `items`, which `source` delivered, up to the source's limit.
    /// - Parameter more: whether another batch is ready right now; when not, what is gathered goes out.
    public func write(_ items: [Item], source: String, more: Bool = false) {
        var failures: [(JQFilter.Failure, Int)] = []
        let chunk: [UInt8]? = state.withLock { state in
            var shown = items[...]
            if let limit {
                let before = state.shown[source, default: 0]
                shown = items.prefix(max(0, limit - before))
                state.shown[source] = before + shown.count
            }
            if let jq {
                failures = Self.filter(shown, source: source, through: jq, state: &state)
            } else {
                NDJSONRenderer.writeLines(shown, source: source, to: &state.writer)
            }
            guard state.writer.bytes.count >= Self.flushThreshold || (!more && !state.writer.bytes.isEmpty) else { return nil }
            defer { state.writer.removeAll() }
            return state.writer.bytes
        }
        for (failure, item) in failures { onFailure(failure, item) }
        if let chunk { output(chunk) }  // outside the lock: it may block on a slow reader
    }

    /// Items in the order given, whatever their sources (a date sort's merge), each run of one source's items
    /// as a batch.
    public func write(_ items: [(source: String, item: Item)]) {
        var start = items.startIndex
        while start < items.endIndex {
            let source = items[start].source
            let end = items[start...].firstIndex { $0.source != source } ?? items.endIndex
            write(items[start..<end].map(\.item), source: source, more: end < items.endIndex)
            start = end
        }
    }

    private static func filter(
        _ items: ArraySlice<Item>, source: String, through jq: JQFilter, state: inout State
    ) -> [(JQFilter.Failure, Int)] {
        var failures: [(JQFilter.Failure, Int)] = []
        for item in items where !state.halted {
            state.written += 1
            state.line.removeAll()
            ReportJSON.writeItem(item, source: source, to: &state.line)
            let result = jq.run(state.line.bytes)
            state.writer.raw(bytes: result.text)
            if let failure = result.failure {
                failures.append((failure, state.written))
                if failure.haltCode != nil { state.halted = true }
            }
        }
        return failures
    }

    /// Hands what is gathered to `output`. Call once the run is over.
    public func flush() {
        let chunk: [UInt8]? = state.withLock { state in
            guard !state.writer.bytes.isEmpty else { return nil }
            defer { state.writer.removeAll() }
            return state.writer.bytes
        }
        if let chunk { output(chunk) }
    }
}
