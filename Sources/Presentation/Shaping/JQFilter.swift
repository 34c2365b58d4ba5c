import CJQ
import Domain
import Synchronization

/// A compiled `--jq` expression, run by the system's libjq: the jq language and its results are jq's own.
///
/// Each result is printed as `jq -r` prints it: strings raw, other values indented by two spaces, or one per
/// line with `compact` (`jq -rc`, for NDJSON), each followed by a newline.
///
/// Thread safety: a `jq_state` may be used by one thread at a time, and some jq 1.6 builds crash when
/// separate states are used on separate threads at once (jqlang/jq#2483, #2545: their thread-local
/// allocator state is set up for the first thread only). Debian's build ran four threads × 200 states clean
/// here, but every call into libjq, from any filter, goes through one process-wide lock all the same: a run
/// has one filter, so the lock costs nothing, and it keeps a second filter (a server's request) safe.
/// The lock is held only while libjq computes; nothing of ours is called under it.
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
    public struct CompileError: Error, Sendable, CustomStringConvertible {
        public var messages: String
        public var description: String { messages }
    }

    /// Every compiled program of the process, by filter, behind the one lock every call into libjq holds
    /// (see the type's comment). The pointers never leave it.
    private struct Programs: ~Copyable {
        var byID: [Int: OpaquePointer] = [:]
        var nextID = 0
    }

    private static let libjq = Mutex(Programs())

    private let id: Int
    public let expression: String
    private let compact: Bool

    /// - Parameter compact: one result per line (`jq -c`), for NDJSON; else indented as jq does by default.
    /// - Throws: `CompileError` with jq's messages.
    public init(_ expression: String, compact: Bool) throws(CompileError) {
        let compiled: Result<Int, CompileError> = Self.libjq.withLock { programs in
            var messages = aggregate_jq_buffer()
            defer { aggregate_jq_buffer_free(&messages) }
            guard let program = aggregate_jq_compile(expression, &messages) else {
                return .failure(CompileError(messages: Self.string(messages)))
            }
            programs.nextID += 1
            programs.byID[programs.nextID] = program
            return .success(programs.nextID)
        }
        self.id = try compiled.get()
        self.expression = expression
        self.compact = compact
    }

    deinit {
        Self.libjq.withLock { programs in
            aggregate_jq_free(programs.byID.removeValue(forKey: id))
        }
    }

    /// Runs the expression on one JSON text (`json`: UTF-8 bytes of one value).
    public func run(_ json: [UInt8]) -> Output {
        let json = json.isEmpty ? Array("null".utf8) : json  // jq reads no value from nothing; never our case
        let (id, compact) = (self.id, self.compact)
        return Self.libjq.withLock { programs in
            var output = aggregate_jq_buffer()
            var messages = aggregate_jq_buffer()
            defer {
                aggregate_jq_buffer_free(&output)
                aggregate_jq_buffer_free(&messages)
            }
            var code: Int32 = 0
            let status = json.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { text in
                    aggregate_jq_run(
                        programs.byID[id], text.baseAddress!, text.count, compact ? 1 : 0, &output, &messages, &code)
                }
            }
            let text = Self.bytes(output)
            let message = Self.string(messages)
            switch status {
            case AGGREGATE_JQ_OK:
                return Output(text: text, failure: nil)
            case AGGREGATE_JQ_HALTED:
                return Output(text: text, failure: Failure(message: message, messageIsJSON: false, haltCode: code))
            case AGGREGATE_JQ_ERROR:
                return Output(text: text, failure: Failure(message: message, messageIsJSON: code == 1, haltCode: nil))
            default:
                // Our own renderers wrote the input; jq not reading it is a bug, reported as jq would.
                return Output(text: text, failure: Failure(message: message, messageIsJSON: false, haltCode: nil))
            }
        }
    }

    private static func bytes(_ buffer: aggregate_jq_buffer) -> [UInt8] {
        guard let bytes = buffer.bytes else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: buffer.length))
    }

    private static func string(_ buffer: aggregate_jq_buffer) -> String {
        guard let bytes = buffer.bytes else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: buffer.length), as: UTF8.self)
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
