import Domain
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        var writer = JSONWriter(capacity: SpooledJSONDocument.chunkSize + 4096, pretty: true)
        var spool: Int32 = -1
        var failure: String?
    }

    static let chunkSize = 64 * 1024

    private let state = Mutex(State())
    private let limit: Int?

    /// - Parameter limit: at most this many items per source (`--limit`); nil keeps every item.
    public init(limit: Int?) {
        self.limit = limit
        state.withLock { state in
            state.writer.beginObject()
            state.writer.key("items")
            state.writer.beginArray()
            state.writer.removeAll()
            var template = Array(
                FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-spool-XXXXXX").path.utf8CString)
            state.spool = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if state.spool >= 0 {
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }  // gone when closed, whatever happens
            } else {
                state.failure = "cannot create a temporary file: \(String(cString: strerror(errno)))"
            }
        }
    }

    deinit {
        state.withLock { state in
            if state.spool >= 0 { close(state.spool) }
        }
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
                if state.writer.bytes.count >= Self.chunkSize { Self.spill(&state) }
            }
        }
    }

    /// Writes the whole document to `output` in chunks: `report`'s head, the spooled items, the tail. Call once,
    /// after the last `write`. Returns what went wrong with the temporary file, if anything (then items are missing).
    public func finish(_ report: AggregateReport, output: ([UInt8]) -> Void) -> String? {
        // Taken out of the lock (with the file, closed here): `output` may block on a slow reader.
        var taken = state.withLock { state in
            Self.spill(&state)
            let taken = state
            state.spool = -1
            return taken
        }
        defer { if taken.spool >= 0 { close(taken.spool) } }
        var head = JSONWriter(capacity: 4096, pretty: true)
        ReportJSON.writeHead(report, to: &head)
        output(head.bytes)
        if taken.failure == nil, lseek(taken.spool, 0, SEEK_SET) == 0 {
            var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(taken.spool, $0.baseAddress!, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count < 0 { taken.failure = "cannot read the temporary file: \(String(cString: strerror(errno)))" }
                if count <= 0 { break }
                output(Array(chunk[0..<count]))
            }
        }
        taken.writer.endArray()
        taken.writer.endObject()
        taken.writer.byte(UInt8(ascii: "\n"))
        output(taken.writer.bytes)
        return taken.failure
    }

    private static func spill(_ state: inout State) {
        defer { state.writer.removeAll() }
        guard state.failure == nil, !state.writer.bytes.isEmpty else { return }
        let written = state.writer.bytes.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = writeBytes(state.spool, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        if !written { state.failure = "cannot write the temporary file: \(String(cString: strerror(errno)))" }
    }
}

/// write(2) (the class's own `write` hides the system's name inside it).
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
