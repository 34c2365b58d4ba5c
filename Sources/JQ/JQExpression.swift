import CJQ
import Synchronization

/// A compiled jq program on the system's libjq: the jq language and its results are jq's own. `--jq`
/// (Presentation's `JQFilter`) and a manifest's `"filter": {"jq": …}` (App) both run through it.
///
/// Thread safety: a `jq_state` may be used by one thread at a time, so each expression holds its state behind
/// a lock of its own, held only while libjq computes (nothing of ours is called under it). Separate expressions
/// run at once on separate threads, with no process-wide lock: why that is safe, and on which libjq builds, is in
/// docs/ARCHITECTURE.md ("The jq lock"); `JQTests` checks it.
public final class JQExpression: Sendable {
    /// What `jq` prints for a syntax or compile error, line by line.
    public struct CompileError: Error, Sendable, CustomStringConvertible {
        public var messages: String
        public var description: String { messages }
    }

    /// How one input ended.
    public enum Status: Sendable, Equatable {
        case ok
        /// An uncaught error; `messageIsJSON`: the error was a value that is not a string.
        case error(messageIsJSON: Bool)
        /// `halt` or `halt_error` with this exit code.
        case halted(code: Int32)
        /// The input was not JSON.
        case badInput
    }

    /// The result of one input: `text` as `jq -r` prints it, and jq's message when it did not end well.
    public struct Output: Sendable, Equatable {
        public var text: [UInt8]
        public var status: Status
        public var message: String
    }

    /// The compiled program. `@unchecked Sendable`: it only ever lives inside `program`'s `Mutex`, so the
    /// `jq_state` behind the pointer is used by one thread at a time, and it is freed once, by its deinit.
    private struct Program: ~Copyable, @unchecked Sendable {
        let pointer: OpaquePointer
        deinit { aggregate_jq_free(pointer) }
    }

    public let expression: String
    private let program: Mutex<Program>

    /// - Throws: `CompileError` with jq's messages.
    public init(_ expression: String) throws(CompileError) {
        var messages = aggregate_jq_buffer()
        defer { aggregate_jq_buffer_free(&messages) }
        guard let pointer = aggregate_jq_compile(expression, &messages) else {
            throw CompileError(messages: Self.string(messages))
        }
        self.expression = expression
        self.program = Mutex(Program(pointer: pointer))
    }

    /// Runs the program on one JSON text (UTF-8 bytes of one value); results as `jq -r` prints them (`compact`:
    /// `jq -rc`), each followed by a newline.
    public func run(_ json: [UInt8], compact: Bool) -> Output {
        let json = json.isEmpty ? Array("null".utf8) : json  // jq reads no value from nothing
        return program.withLock { program in
            var output = aggregate_jq_buffer()
            var messages = aggregate_jq_buffer()
            defer {
                aggregate_jq_buffer_free(&output)
                aggregate_jq_buffer_free(&messages)
            }
            var code: Int32 = 0
            let status = json.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { text in
                    aggregate_jq_run(program.pointer, text.baseAddress!, text.count, compact ? 1 : 0, &output, &messages, &code)
                }
            }
            let outcome: Status = switch status {
            case AGGREGATE_JQ_OK: .ok
            case AGGREGATE_JQ_HALTED: .halted(code: code)
            case AGGREGATE_JQ_ERROR: .error(messageIsJSON: code == 1)
            default: .badInput
            }
            return Output(text: Self.bytes(output), status: outcome, message: Self.string(messages))
        }
    }

    /// Whether the program keeps `json`: it yields a result that is neither `false` nor `null` (`select(…)`, or
    /// a bare condition). An error or a halt before such a result is `.failure` with jq's message.
    public func keeps(_ json: [UInt8]) -> Result<Bool, Failure> {
        program.withLock { program in
            var messages = aggregate_jq_buffer()
            defer { aggregate_jq_buffer_free(&messages) }
            let answer = json.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { text in
                    aggregate_jq_keeps(program.pointer, text.baseAddress!, text.count, &messages)
                }
            }
            return answer >= 0 ? .success(answer == 1) : .failure(Failure(message: Self.string(messages)))
        }
    }

    /// Why `keeps` could not answer: jq's message.
    public struct Failure: Error, Sendable, Equatable {
        public var message: String
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
