import Domain
import Foundation
import Synchronization

/// `--format json` for a run that streams: the document's `items` are rendered as batches arrive and spooled
/// to an unlinked temporary file, and once the run is over the document is written as the head (generatedAt,
/// the sources), the spooled items and the tail: exactly `JSONRenderer`'s text, in memory bounded by a
/// chunk however many items there are. (The sources' summaries come before the items in the document and
/// are only known at the end, so the items have to wait somewhere.)
///
/// Batches must arrive in output order, one at a time, as `NDJSONStreamWriter`'s do.
public final class SpooledJSONDocument: Sendable {
    private struct State {
        var shown: [String: Int] = [:]
        /// Writes the items at the depth they have in the document; its text before the first item (the
        /// document's opening up to `"items": [`) is dropped.
        var writer = JSONWriter(capacity: SpoolFile.chunkSize + 4096, pretty: true)
        var spool = SpoolFile()
    }

    private let state = Mutex(State())
    private let limit: Int?

    /// - Parameter limit: at most this many items per source (`--limit`); nil keeps every item.
    public init(limit: Int?) {
        self.limit = limit
        state.withLock { state in
            state.writer = JSONWriter.atItemsDepth(capacity: SpoolFile.chunkSize + 4096)
        }
    }

    deinit {
        state.withLock { $0.spool.close() }
    }

    /// Renders `items` of `source` into the spool, up to the source's limit.
    public func write(_ items: [Item], source: String) {
        state.withLock { state in
            var shown = items[...]
            if let limit {
                let before = state.shown[source, default: 0]
                shown = items.prefix(max(0, limit - before))
                state.shown[source] = before + shown.count
            }
            for item in shown {
                ReportJSON.writeItem(item, source: source, to: &state.writer)
                if state.writer.bytes.count >= SpoolFile.chunkSize { Self.spill(&state) }
            }
        }
    }

    /// Writes the whole document to `output` in chunks: `report`'s head, the spooled items, the tail. Call once,
    /// after the last `write`. Returns what went wrong with the temporary file, if anything (then items are missing).
    public func finish(_ report: AggregateReport, output: @escaping ([UInt8]) -> Void) -> String? {
        finish(report, to: ByteOutput(write: output))
    }

    /// `finish(_:output:)` to an output that may take the spooled items as a file (stdout: `sendfile(2)`, so a
    /// document of 50 MB is not read back and written again through this process).
    public func finish(_ report: AggregateReport, to output: some SpoolOutput) -> String? {
        // Taken out of the lock (with the file, closed here): `output` may block on a slow reader.
        var taken = state.withLock { state in
            Self.spill(&state)
            let taken = state
            state.spool = SpoolFile.closed
            return taken
        }
        defer { taken.spool.close() }
        var head = JSONWriter(capacity: 4096, pretty: true)
        ReportJSON.writeHead(report, to: &head)
        output.write(bytes: head.bytes)
        taken.spool.copy(to: output)
        output.write(bytes: JSONWriter.itemsTail(after: &taken.writer))
        return taken.spool.failure
    }

    private static func spill(_ state: inout State) {
        state.spool.append(state.writer.bytes)
        state.writer.removeAll()
    }
}

extension JSONWriter {
    /// A writer at the depth of the JSON document's items (their indentation), with nothing written yet.
    static func atItemsDepth(capacity: Int) -> JSONWriter {
        var writer = JSONWriter(capacity: capacity, pretty: true)
        writer.beginObject()
        writer.key("items")
        writer.beginArray()
        writer.removeAll()
        return writer
    }

    /// The document's end after the items `writer` wrote (at `atItemsDepth`): `]`, `}` and the line break.
    static func itemsTail(after writer: inout JSONWriter) -> [UInt8] {
        writer.removeAll()
        writer.endArray()
        writer.endObject()
        writer.byte(UInt8(ascii: "\n"))
        return writer.bytes
    }
}
