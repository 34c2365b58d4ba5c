import Domain
import Foundation
import Mustache

/// A Mustache template (hummingbird-project/swift-mustache, the spec's Mustache) with the helpers of
/// `TemplateValue`, checked when it is made: `--template` (Presentation's `ReportTemplate`) and the sinks' texts
/// (a Slack message, an email's subject and bodies) are these. `{{x}}` escapes HTML as Mustache does; `{{{x}}}`
/// prints the text as it is.
public struct Template: Sendable {
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

        /// One line: where and what, for a manifest problem.
        public var summary: String {
            let place = column.map { "line \(line), column \($0)" } ?? "line \(line)"
            return "\(place): \(message)"
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

    /// A template of the project's own, known to be valid (a default): a mistake in it is a bug.
    public static func unchecked(_ text: String) -> Template {
        do throws(Problem) {
            return try Template(text)
        } catch {
            preconditionFailure("a built-in template does not compile: \(error)")
        }
    }

    /// The template over `context` (dictionaries, arrays and `TemplateValue`s: `TemplateContext`).
    public func render(_ context: Any) -> String {
        template.render(context)
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

/// Items as Mustache context: dictionaries and arrays, strings and numbers as `TemplateValue`.
public struct TemplateContext: Sendable {
    /// What `relative` measures from.
    public let now: Date

    public init(now: Date) {
        self.now = now
    }

    /// `source`, `kind`, `id`, `title`, `subtitle`, `url`, `date`, `fields`, as the JSON contract names them.
    public func item(_ item: Item, source: String) -> [String: Any] {
        var values: [String: Any] = [
            "source": text(source), "kind": text(item.kind.rawValue), "id": text(item.id), "title": text(item.title),
            "fields": value(.object(item.fields)) ?? [String: Any](),
        ]
        if let subtitle = item.subtitle { values["subtitle"] = text(subtitle) }
        if let url = item.url { values["url"] = text(url.absoluteString) }
        if let date = item.date { values["date"] = text(ISO8601.string(from: date)) }
        return values
    }

    public func text(_ string: String) -> TemplateValue { TemplateValue(text: string, now: now) }

    /// Nil for JSON null: absent, so empty and falsy.
    public func value(_ json: JSONValue) -> Any? {
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
