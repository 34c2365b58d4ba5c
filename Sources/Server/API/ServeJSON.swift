import Domain
import Foundation
import Presentation

/// The server's own JSON shapes (the report itself is Presentation's `--format json` contract).
enum ServeJSON {
    /// A source's state (`/api/sources`, the `source` event): `status` is `loading` until its first cycle
    /// ended, then the report's status; `durationMs` (the last cycle's), `error`, `lastSuccess`, `updated` and `nextRefresh` are null when
    /// there is nothing to say.
    static func writeSource(_ source: WatchSourceState, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.string(source.id)
        writer.key("provider")
        writer.string(source.provider ?? source.report?.descriptor.provider)
        writer.key("status")
        writer.string(source.report?.status.rawValue ?? "loading")
        writer.key("running")
        writer.bool(source.isRunning)
        writer.key("cache")
        writer.string(source.report?.cache.rawValue)
        writer.key("itemCount")
        writer.int(source.report?.itemCount ?? 0)
        writer.key("durationMs")
        if let report = source.report { writer.int(Int((max(0, report.duration) * 1000).rounded())) } else { writer.null() }
        writer.key("lastSuccess")
        writer.string(source.lastSuccessAt.map(ISO8601.string(from:)))
        writer.key("updated")
        writer.string(source.finishedAt.map(ISO8601.string(from:)))
        writer.key("nextRefresh")
        writer.string(source.next.map(ISO8601.string(from:)))
        writer.key("error")
        if let error = source.report?.error {
            writer.sourceError(error)
        } else {
            writer.null()
        }
        writer.endObject()
    }

    static func source(_ source: WatchSourceState) -> String {
        var writer = JSONWriter()
        writeSource(source, to: &writer)
        return writer.text
    }

    static func sources(_ sources: [WatchSourceState]) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024, pretty: false)
        writer.beginObject()
        writer.key("sources")
        writer.beginArray()
        for source in sources { writeSource(source, to: &writer) }
        writer.endArray()
        writer.endObject()
        writer.byte(UInt8(ascii: "\n"))
        return writer.bytes
    }

    /// An item as in the JSON contract (`source` first).
    static func item(_ item: Item, source: String) -> String {
        var writer = JSONWriter()
        writer.item(item, source: source)
        return writer.text
    }

    /// `{"error": {"parameter": …, "message": …}}` (400s and the like).
    static func error(_ message: String, parameter: String? = nil) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("error")
        writer.beginObject()
        if let parameter {
            writer.key("parameter")
            writer.string(parameter)
        }
        writer.key("message")
        writer.string(message)
        writer.endObject()
        writer.endObject()
        writer.byte(UInt8(ascii: "\n"))
        return writer.bytes
    }
}
