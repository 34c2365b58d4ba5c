import Domain
import Foundation
import Templating

/// `--template TEXT|@FILE`: a Mustache template (`Template`, hummingbird-project/swift-mustache) rendered once
/// over the report, with the keys of the `--format json` contract: `generatedAt`, `sources`
/// (each `id`, `provider`, `status`, `cache`, `itemCount`, `durationMs`, `error`, `warnings`, `message`) and
/// `items` (each `source`, `kind`, `id`, `title`, `subtitle`, `url`, `date`, `fields`). Absent values are
/// empty and falsy. `{{x}}` escapes HTML as Mustache does; `{{{x}}}` prints the text as it is. Helpers:
/// `TemplateValue`.
public struct ReportTemplate: Sendable {
    /// A template that cannot run, with the line it is about.
    public typealias Problem = Template.Problem

    private let template: Template

    /// - Throws: `Problem` for a syntax error or an unknown helper, pointing at its line.
    public init(_ text: String) throws(Problem) {
        template = try Template(text)
    }

    /// The template over `report` (at most `options.limit` items per source, in output order); `now` is what
    /// `relative` measures from.
    public func render(_ report: AggregateReport, options: RenderOptions, now: Date) -> String {
        template.render(ReportTemplateContext(context: TemplateContext(now: now)).report(report, limit: options.limit))
    }
}

/// The report as Mustache context: `TemplateContext`'s items, and the sources.
struct ReportTemplateContext {
    let context: TemplateContext

    func report(_ report: AggregateReport, limit: Int?) -> [String: Any] {
        [
            "generatedAt": text(ISO8601.string(from: report.generatedAt)),
            "sources": report.sources.map(source),
            "items": report.itemsInOutputOrder(limit: limit).map { context.item($0.item, source: $0.source) },
        ]
    }

    private func source(_ source: SourceReport) -> [String: Any] {
        var values: [String: Any] = [
            "id": text(source.id), "provider": text(source.descriptor.provider), "status": text(source.status.rawValue),
            "cache": text(source.cache.rawValue), "itemCount": text(String(source.itemCount)),
            "durationMs": text(String(ReportJSON.milliseconds(source.duration))),
        ]
        if let error = source.error { values["error"] = ["kind": text(error.kind.rawValue), "message": text(error.message)] }
        if !source.warnings.isEmpty { values["warnings"] = source.warnings.map(text) }
        if let message = source.message { values["message"] = text(message) }
        return values
    }

    private func text(_ string: String) -> TemplateValue { context.text(string) }
}
