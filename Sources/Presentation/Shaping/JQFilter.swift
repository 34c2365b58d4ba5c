import Domain
import JQ

/// A compiled `--jq` expression, run by the system's libjq (`JQExpression`): the jq language and its results
/// are jq's own.
///
/// Each result is printed as `jq -r` prints it: strings raw, other values indented by two spaces, or one per
/// line with `compact` (`jq -rc`, for NDJSON), each followed by a newline. One filter is used by one thread at a
/// time (its expression's lock); filters of separate runs (a server's requests) run at once.
public final class JQFilter: Sendable {
    /// The result of one input.
    public struct Output: Sendable, Equatable {
        /// What `jq -r` prints on stdout for the input, every result followed by a newline.
        public var text: [UInt8]
        /// Set when the expression stopped with an error or `halt_error`: what jq prints on stderr.
        public var failure: Failure?
    }

    /// How running an expression on one input ended badly.
    public struct Failure: Sendable, Equatable, Error {
        /// jq's message (`error("x")` gives `x`; a value that is not a string is its JSON).
        public var message: String
        /// Whether the error was a value that is not a string (jq says "(not a string)").
        public var messageIsJSON: Bool
        /// `halt_error`'s exit code, or nil for an uncaught error (jq exits 5 then).
        public var haltCode: Int32?

        /// The line `jq` prints on stderr, `position` saying where ("<stdin>:3", "item 3").
        public func line(at position: String) -> String {
            if haltCode != nil { return message }
            return messageIsJSON
                ? "jq: error (at \(position)) (not a string): \(message)\n"
                : "jq: error (at \(position)): \(message)\n"
        }

        /// The exit status jq would end with.
        public var exitStatus: Int32 { haltCode ?? 5 }
    }

    /// A syntax or compile error in the expression: jq's own lines, as it prints them on stderr.
    public typealias CompileError = JQExpression.CompileError

    private let program: JQExpression
    public var expression: String { program.expression }
    private let compact: Bool

    /// - Parameter compact: one result per line (`jq -c`), for NDJSON; else indented as jq does by default.
    /// - Throws: `CompileError` with jq's messages.
    public init(_ expression: String, compact: Bool) throws(CompileError) {
        self.program = try JQExpression(expression)
        self.compact = compact
    }

    /// Runs the expression on one JSON text (`json`: UTF-8 bytes of one value).
    public func run(_ json: [UInt8]) -> Output {
        let output = program.run(json, compact: compact)
        switch output.status {
        case .ok:
            return Output(text: output.text, failure: nil)
        case .halted(let code):
            return Output(text: output.text, failure: Failure(message: output.message, messageIsJSON: false, haltCode: code))
        case .error(let messageIsJSON):
            return Output(text: output.text, failure: Failure(message: output.message, messageIsJSON: messageIsJSON, haltCode: nil))
        case .badInput:
            // Our own renderers wrote the input; jq not reading it is a bug, reported as jq would.
            return Output(text: output.text, failure: Failure(message: output.message, messageIsJSON: false, haltCode: nil))
        }
    }
}

extension JQFilter {
    /// `--format json --jq`: the report's JSON (the `--format json` contract) through the filter.
    public func run(_ report: AggregateReport, options: RenderOptions) -> Output {
        var writer = JSONWriter(capacity: 64 * 1024)
        ReportJSON.writeDocument(report, options: options, to: &writer)
        return run(writer.bytes)
    }
}
