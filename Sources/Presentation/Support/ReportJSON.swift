import Domain
import Foundation

/// The JSON output contract's shapes (docs/OUTPUT.md, "Output contract"), shared by the JSON and NDJSON renderers and
/// written straight to a `JSONWriter` in the contract's key order.
enum ReportJSON {
    /// `{ "generatedAt", "summary": {...}, "sources": [...], "items": [...] }`.
    static func writeDocument(_ report: AggregateReport, options: RenderOptions, to writer: inout JSONWriter) {
        writeHead(report, to: &writer)
        for (source, item) in report.itemsInOutputOrder(limit: options.limit) { writeItem(item, source: source, to: &writer) }
        writer.endArray()
        writer.endObject()
    }

    /// The document up to and with the `items` array's opening bracket (`SpooledJSONDocument` writes the rest).
    static func writeHead(_ report: AggregateReport, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("generatedAt")
        writer.string(ISO8601.string(from: report.generatedAt))
        writer.key("summary")
        writeSummary(report, to: &writer)
        writer.key("sources")
        writer.beginArray()
        for source in report.sources { writeSource(source, to: &writer) }
        writer.endArray()
        writer.key("items")
        writer.beginArray()
    }

    /// `cache` is always present; `filtered` for a source with a filter; `error`, `warnings` and `message` only when
    /// there is something to say.
    static func writeSource(_ source: SourceReport, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.string(source.id)
        writer.key("provider")
        writer.string(source.descriptor.provider)
        writer.key("status")
        writer.string(source.status.rawValue)
        writer.key("cache")
        writer.string(source.cache.rawValue)
        writer.key("itemCount")
        writer.int(source.itemCount)
        writer.key("durationMs")
        writer.int(milliseconds(source.duration))
        if let filtered = source.filteredItemCount {
            writer.key("filtered")
            writer.int(filtered)
        }
        if let error = source.error {
            writer.key("error")
            writer.sourceError(error)
        }
        if !source.warnings.isEmpty {
            writer.key("warnings")
            writer.value(.array(source.warnings.map(JSONValue.string)))
        }
        if let message = source.message {
            writer.key("message")
            writer.string(message)
        }
        writer.endObject()
    }

    /// `subtitle`, `url` and `date` are always present (`null` when absent); `fields` keys sorted.
    static func writeItem(_ item: Item, source: String, to writer: inout JSONWriter) {
        writer.item(item, source: source)
    }

    /// Whole milliseconds, rounded; a negative or non-finite duration (a clock oddity) reads as 0.
    static func milliseconds(_ duration: TimeInterval) -> Int {
        guard duration.isFinite, duration > 0 else { return 0 }
        return Int((duration * 1000).rounded())
    }
}
