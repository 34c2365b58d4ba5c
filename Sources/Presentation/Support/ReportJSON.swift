import Domain
import Foundation

/// The JSON output contract's shapes (README, "JSON output"), shared by the JSON and NDJSON renderers.
enum ReportJSON {
    /// `{ "generatedAt", "sources": [...], "items": [...] }`.
    static func document(_ report: AggregateReport, options: RenderOptions) -> OrderedJSON {
        .object([
            ("generatedAt", .string(ISO8601.string(from: report.generatedAt))),
            ("sources", .array(report.sources.map(source))),
            ("items", .array(items(report, options: options))),
        ])
    }

    /// Every shown item in source (manifest) order, then each source's own order.
    static func items(_ report: AggregateReport, options: RenderOptions) -> [OrderedJSON] {
        report.sources.flatMap { source in
            options.shownItems(source.items).map { item(source: source.id, $0) }
        }
    }

    /// `cache` is always present; `error`, `warnings` and `message` appear only when there is something to say.
    static func source(_ source: SourceReport) -> OrderedJSON {
        var members: [(key: String, value: OrderedJSON)] = [
            ("id", .string(source.id)),
            ("provider", .string(source.descriptor.provider)),
            ("status", .string(source.status.rawValue)),
            ("cache", .string(source.cache.rawValue)),
            ("itemCount", .value(.int(source.items.count))),
            ("durationMs", .value(.int(milliseconds(source.duration)))),
        ]
        if let error = source.error {
            members.append(("error", .object([
                ("kind", .string(error.kind.rawValue)),
                ("message", .string(error.message)),
            ])))
        }
        if !source.warnings.isEmpty {
            members.append(("warnings", .array(source.warnings.map { .string($0) })))
        }
        if let message = source.message {
            members.append(("message", .string(message)))
        }
        return .object(members)
    }

    /// `subtitle`, `url` and `date` are always present (`null` when absent); `fields` keys sorted.
    static func item(source: String, _ item: Item) -> OrderedJSON {
        .object([
            ("source", .string(source)),
            ("kind", .string(item.kind.rawValue)),
            ("id", .string(item.id)),
            ("title", .string(item.title)),
            ("subtitle", .string(item.subtitle)),
            ("url", .string(item.url?.absoluteString)),
            ("date", .string(item.date.map(ISO8601.string(from:)))),
            ("fields", .value(.object(item.fields))),
        ])
    }

    /// Whole milliseconds, rounded; a negative or non-finite duration (a clock oddity) reads as 0.
    static func milliseconds(_ duration: TimeInterval) -> Int {
        guard duration.isFinite, duration > 0 else { return 0 }
        return Int((duration * 1000).rounded())
    }
}
