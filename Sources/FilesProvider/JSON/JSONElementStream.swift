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

    private let input: FileInput
    private var buffer: UnsafeMutableRawBufferPointer
    private var end = 0
    private var reachedEnd = false
    /// The file offset of `buffer[0]`.
    private var bufferOffset = 0
    private var position = JSONParser.Position()
    let workspace = JSONParser.Workspace()
    /// The largest the buffer has been, so tests can check that reading stays bounded.
    private(set) var peakBufferSize: Int

    init(input: FileInput, chunkSize: Int = 1 << 20) {
        self.input = input
        self.buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        self.peakBufferSize = chunkSize
    }

    deinit {
        buffer.deallocate()
    }

    var isRegularFile: Bool { input.isRegularFile }

    /// Skips a UTF-8 byte-order mark and whitespace, and returns the first byte of the document (nil: empty).
    func start() throws(SourceError) -> UInt8? {
        while end < 3, !reachedEnd { try fill() }
        if end >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { position.index = 3 }
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
            parser.skipWhitespace()
            if try parser.consume(UInt8(ascii: "]")) { return nil }
            if !first {
                guard try parser.consume(UInt8(ascii: ",")) else {
                    throw parser.failure("expected ',' or ']' in an array, found \(parser.describeCurrent())")
                }
                parser.skipWhitespace()
            }
            let line = parser.position.line
            return (try parser.parseValue(), line)
        }
    }

    /// The next member's key of the object whose `{` was consumed, with its `:` consumed; nil after its `}`.
    func nextKey(first: Bool) throws(SourceError) -> String? {
        try step { (parser: inout JSONParser) throws(JSONParser.Failure) in
            parser.skipWhitespace()
            if try parser.consume(UInt8(ascii: "}")) { return nil }
            if !first {
                guard try parser.consume(UInt8(ascii: ",")) else {
                    throw parser.failure("expected ',' or '}' in an object, found \(parser.describeCurrent())")
                }
                parser.skipWhitespace()
            }
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

    /// One whole value.
    func value() throws(SourceError) -> JSONValue {
        try step { (parser: inout JSONParser) throws(JSONParser.Failure) in try parser.parseValue() }
    }

    /// Where the next byte is, for `seek(to:)`.
    var mark: Mark {
        Mark(offset: bufferOffset + position.index, line: position.line, column: position.index - position.lineStart + 1)
    }

    /// Reads on from `mark` of the same file (regular files only), forgetting what was buffered.
    func seek(to mark: Mark) throws(SourceError) {
        try input.seek(to: mark.offset)
        bufferOffset = mark.offset
        end = 0
        reachedEnd = false
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
            let bytes = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: end)
            var parser = JSONParser(bytes, workspace: workspace, at: position)
            do throws(JSONParser.Failure) {
                let result = try body(&parser)
                if parser.position.index < end || reachedEnd {
                    position = parser.position
                    return result
                }
            } catch {
                if !error.truncated || reachedEnd { throw error.sourceError }
            }
            try fill()
        }
    }

    /// Moves the unread bytes to the front, doubles the buffer when they fill it, and reads more.
    private func fill() throws(SourceError) {
        let unread = position.index
        if unread > 0 {
            let pending = end - unread
            if pending > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + unread, pending) }
            end = pending
            bufferOffset += unread
            position.index = 0
            position.lineStart -= unread
        }
        if end == buffer.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
            grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
            buffer.deallocate()
            buffer = grown
            peakBufferSize = max(peakBufferSize, grown.count)
        }
        let count = try input.readChunk(into: buffer.baseAddress! + end, count: buffer.count - end)
        if count == 0 { reachedEnd = true }
        end += count
    }
}
