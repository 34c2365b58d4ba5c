import Domain
import Foundation
import Mustache

/// `--template TEXT|@FILE`: a Mustache template (hummingbird-project/swift-mustache, the spec's Mustache)
/// rendered once over the report, with the keys of the `--format json` contract: `generatedAt`, `sources`
/// (each `id`, `provider`, `status`, `cache`, `itemCount`, `durationMs`, `error`, `warnings`, `message`) and
/// `items` (each `source`, `kind`, `id`, `title`, `subtitle`, `url`, `date`, `fields`). Absent values are
/// empty and falsy. `{{x}}` escapes HTML as Mustache does; `{{{x}}}` prints the text as it is. Helpers:
/// `TemplateValue`.
public struct ReportTemplate: Sendable {
    /// A template that cannot run, with the line it is about.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int?
        public var message: String
        /// The template's line, for the pointer under it.
        public var text: String

        public var description: String {
            let place = column.map { "line \(line), column \($0)" } ?? "line \(line)"
            var lines = "template \(place): \(message)\n  \(text)"
            if let column { lines += "\n  " + String(repeating: " ", count: max(0, column - 1)) + "^" }
            return lines
        }
    }

    private let template: MustacheTemplate

    /// - Throws: `Problem` for a syntax error or an unknown helper, pointing at its line.
    public init(_ text: String) throws(Problem) {
        do {
            template = try MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            throw Problem(
                line: error.context.lineNumber, column: error.context.columnNumber,
                message: Self.describe(error.error), text: error.context.line)
        } catch {
            throw Problem(line: 1, column: nil, message: "\(error)", text: "")
        }
        try Self.checkHelpers(in: text)
    }

    /// The template over `report` (at most `options.limit` items per source, in output order); `now` is what
    /// `relative` measures from.
    public func render(_ report: AggregateReport, options: RenderOptions, now: Date) -> String {
        template.render(TemplateContext(now: now).report(report, limit: options.limit))
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect: "this closing tag does not match the section it closes"
        case .unfinishedName: "unfinished tag: a name (letters, digits, . - _) and then the closing }}"
        case .expectedSectionEnd: "a section is never closed ({{/name}} missing)"
        case .invalidSetDelimiter: "bad set-delimiter tag"
        case .transformAppliedToInheritanceSection: "a helper cannot apply to an inheritance section"
        case .illegalTokenInsideInheritSection, .textInsideInheritSection: "unexpected content in an inheritance section"
        case .invalidConfigVariableSyntax, .unrecognisedConfigVariable: "bad pragma"
        case nil: "\(error)"
        }
    }

    /// Mustache renders an unknown transform as nothing; a typo should say so instead, with its line.
    private static func checkHelpers(in text: String) throws(Problem) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            var rest = line[...]
            while let open = rest.range(of: "{{") {
                guard let close = rest[open.upperBound...].range(of: "}}") else { break }
                let tag = rest[open.upperBound..<close.lowerBound]
                let name = tag.drop { "#^/&{ ".contains($0) }
                let calls = name.contains("(") ? name.split(separator: "(", omittingEmptySubsequences: false).dropLast() : []
                for call in calls where !TemplateHelpers.isKnown(String(call)) {
                    let column = line.distance(from: line.startIndex, to: open.lowerBound) + 1
                    throw Problem(
                        line: index + 1, column: column,
                        message: "unknown helper '\(call)'; helpers: \(TemplateHelpers.names.joined(separator: ", "))",
                        text: String(line))
                }
                rest = rest[close.upperBound...]
            }
        }
    }
}

/// The report as Mustache context: dictionaries and arrays, strings and numbers as `TemplateValue`.
struct TemplateContext {
    let now: Date

    func report(_ report: AggregateReport, limit: Int?) -> [String: Any] {
        [
            "generatedAt": text(ISO8601.string(from: report.generatedAt)),
            "sources": report.sources.map(source),
            "items": report.itemsInOutputOrder(limit: limit).map { item($0.item, source: $0.source) },
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

    private func item(_ item: Item, source: String) -> [String: Any] {
        var values: [String: Any] = [
            "source": text(source), "kind": text(item.kind.rawValue), "id": text(item.id), "title": text(item.title),
            "fields": value(.object(item.fields)) ?? [String: Any](),
        ]
        if let subtitle = item.subtitle { values["subtitle"] = text(subtitle) }
        if let url = item.url { values["url"] = text(url.absoluteString) }
        if let date = item.date { values["date"] = text(ISO8601.string(from: date)) }
        return values
    }

    private func text(_ string: String) -> TemplateValue { TemplateValue(text: string, now: now) }

    /// Nil for JSON null: absent, so empty and falsy.
    private func value(_ json: JSONValue) -> Any? {
        switch json {
        case .null: nil
        case .bool(let flag): flag
        case .int, .double: text(json.displayText)
        case .string(let string): text(string)
        case .array(let values): values.compactMap(value)
        case .object(let members): members.compactMapValues(value)
        }
    }
}
