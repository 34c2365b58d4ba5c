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
public final class NDJSONStreamWriter: Sendable {
    private struct State {
        var shown: [String: Int] = [:]
        var writer = JSONWriter(capacity: NDJSONStreamWriter.flushThreshold + 4096)
    }

    /// Bytes gathered before they are handed to `output`.
    static let flushThreshold = 64 * 1024

    private let state = Mutex(State())
    private let limit: Int?
    private let output: @Sendable ([UInt8]) -> Void

    /// - Parameters:
    ///   - limit: at most this many items per source (`--limit`); nil writes every item.
    ///   - output: receives the text in order: a chunk when 64 KiB are gathered or no batch is waiting, and
    ///     what is left from `flush()`.
    public init(limit: Int?, output: @escaping @Sendable ([UInt8]) -> Void) {
        self.limit = limit
        self.output = output
    }

    /// Writes the lines of `items`, which `source` delivered, up to the source's limit.
    /// - Parameter more: whether another batch is ready right now; when not, what is gathered goes out.
    public func write(_ items: [Item], source: String, more: Bool = false) {
        let chunk: [UInt8]? = state.withLock { state in
            var shown = items[...]
            if let limit {
                let before = state.shown[source, default: 0]
                shown = items.prefix(max(0, limit - before))
                state.shown[source] = before + shown.count
            }
            NDJSONRenderer.writeLines(shown, source: source, to: &state.writer)
            guard state.writer.bytes.count >= Self.flushThreshold || (!more && !state.writer.bytes.isEmpty) else { return nil }
            defer { state.writer.removeAll() }
            return state.writer.bytes
        }
        if let chunk { output(chunk) }  // outside the lock: it may block on a slow reader
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
