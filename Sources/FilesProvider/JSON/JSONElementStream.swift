import Domain
import Foundation

/// A JSON file read in chunks and parsed one value at a time, so a huge array never has to be in memory whole:
/// memory stays at one chunk plus the largest single value.
///
/// Each step (a value, a `,`, a bracket) is parsed by `JSONParser` on the bytes read so far. When a step runs
/// off the end of them (`Failure.truncated`, or a value ending exactly at the end, which a number could still
/// continue), the unread bytes move to the front, more are read (the buffer doubles when one value fills it)
/// and the step is parsed again from its start. Line and column numbers stay those of the whole file.
///
/// Not thread-safe: one reader owns it on one queue.
final class JSONElementStream {
    /// Where an array starts in the file, to read it again from there (`seek(to:)`).
    struct Mark {
        var offset: Int
        var line: Int
        var column: Int
    }

    private let window: FileWindow
    /// The file offset of the window's first byte.
    private var windowOffset = 0
    private var position = JSONParser.Position()
    let workspace = JSONParser.Workspace()
    /// The largest the buffer has been, so tests can check that reading stays bounded.
    var peakBufferSize: Int { window.peakBufferSize }

    init(input: FileInput, chunkSize: Int = 1 << 20) {
        self.window = FileWindow(input: input, chunkSize: chunkSize)
    }

    var isRegularFile: Bool { window.isRegularFile }

    /// Skips a UTF-8 byte-order mark and whitespace, and returns the first byte of the document (nil: empty).
    func start() throws(SourceError) -> UInt8? {
        while window.bytes.count < 3, !window.reachedEnd { try fill() }
        position.index = window.byteOrderMarkLength
        return try peek()
    }

    /// Skips whitespace and returns the next byte (nil: the end of the file).
    func peek() throws(SourceError) -> UInt8? {
        try step { (parser: inout JSONParser) throws(JSONParser.Failure) in
            parser.skipWhitespace()
            return parser.current
        }
    }

    /// Consumes `byte` if it comes next (after whitespace).
    func consume(_ byte: UInt8) throws(SourceError) -> Bool {
        try step { (parser: inout JSONParser) throws(JSONParser.Failure) in
            parser.skipWhitespace()
            return try parser.consume(byte)
        }
    }

    /// The next element of the array whose `[` was consumed, with the line it starts on; nil after its `]`.
    /// `first` tells whether an element was returned yet (no `,` before the first).
    func nextElement(first: Bool) throws(SourceError) -> (value: JSONValue, line: Int)? {
        try step { (parser: inout JSONParser) throws(JSONParser.Failure) in
            if try Self.closes(&parser, with: "]", in: "an array", first: first) { return nil }
            let line = parser.position.line
            return (try parser.parseValue(), line)
        }
    }

    /// The next member's key of the object whose `{` was consumed, with its `:` consumed; nil after its `}`.
    func nextKey(first: Bool) throws(SourceError) -> String? {
        try step { (parser: inout JSONParser) throws(JSONParser.Failure) in
            if try Self.closes(&parser, with: "}", in: "an object", first: first) { return nil }
            guard parser.current == UInt8(ascii: "\"") else {
                throw parser.failure("expected a string key in an object, found \(parser.describeCurrent())")
            }
            let key = try parser.parseString()
            parser.skipWhitespace()
            guard try parser.consume(UInt8(ascii: ":")) else {
                throw parser.failure("expected ':' after an object key, found \(parser.describeCurrent())")
            }
            parser.skipWhitespace()
            return key
        }
    }

    /// Before a container's next element or member: whether its closing bracket comes (consumed), else the
    /// `,` that must separate it from an earlier one (consumed, with the whitespace around it).
    private static func closes(
        _ parser: inout JSONParser, with bracket: Unicode.Scalar, in container: String, first: Bool
    ) throws(JSONParser.Failure) -> Bool {
        parser.skipWhitespace()
        if try parser.consume(UInt8(ascii: bracket)) { return true }
        if !first {
            guard try parser.consume(UInt8(ascii: ",")) else {
                throw parser.failure("expected ',' or '\(bracket)' in \(container), found \(parser.describeCurrent())")
            }
            parser.skipWhitespace()
        }
        return false
    }

    /// One whole value.
    func value() throws(SourceError) -> JSONValue {
        try step { (parser: inout JSONParser) throws(JSONParser.Failure) in try parser.parseValue() }
    }

    /// Where the next byte is, for `seek(to:)`.
    var mark: Mark {
        Mark(offset: windowOffset + position.index, line: position.line, column: position.index - position.lineStart + 1)
    }

    /// Reads on from `mark` of the same file (regular files only), forgetting what was buffered.
    func seek(to mark: Mark) throws(SourceError) {
        try window.seek(to: mark.offset)
        windowOffset = mark.offset
        position = JSONParser.Position(index: 0, line: mark.line, lineStart: 1 - mark.column)
    }

    /// Only whitespace may follow the document.
    func finish() throws(SourceError) {
        try step { (parser: inout JSONParser) throws(JSONParser.Failure) in try parser.finishDocument() }
    }

    // MARK: - Steps and buffering

    /// Runs `body` on the bytes read so far from the current position; reads more and runs it again from the
    /// same position while it needs more. A failure with the whole file read is the file's syntax error.
    private func step<T>(_ body: (inout JSONParser) throws(JSONParser.Failure) -> T) throws(SourceError) -> T {
        while true {
            let bytes = window.bytes
            var parser = JSONParser(bytes, workspace: workspace, at: position)
            do throws(JSONParser.Failure) {
                let result = try body(&parser)
                if parser.position.index < bytes.count || window.reachedEnd {
                    position = parser.position
                    return result
                }
            } catch {
                if !error.truncated || window.reachedEnd { throw error.sourceError }
            }
            try fill()
        }
    }

    /// Reads more after the unread bytes; positions stay those of the whole file.
    private func fill() throws(SourceError) {
        let consumed = position.index
        try window.refill(dropping: consumed)
        windowOffset += consumed
        position.index = 0
        position.lineStart -= consumed
    }
}
