import Foundation

/// A strict RFC 8259 parser from UTF-8 bytes straight to `JSONValue`.
///
/// Why not `JSONSerialization`: on Linux it builds an `NSDictionary`/`NSNumber` tree that is then walked and
/// converted again, which doubles the work and the garbage per NDJSON line. This parser makes one pass and
/// allocates only the values it returns. It also counts lines, so errors in a `.json` file say where they are.
package struct JSONParser {
    /// A syntax error, with the 1-based line and column of the offending byte within the parsed text.
    package struct Failure: Error, Equatable {
        package var message: String
        package var line: Int
        package var column: Int
        /// The text ended before the value did: more bytes could still make it valid (`JSONElementStream`
        /// reads more and parses the value again).
        package var truncated = false
    }

    /// Where the parser is: the next byte's index, and the line it is on with that line's first byte (an index
    /// that may lie before the parsed bytes, when they are a window onto a longer text).
    package struct Position {
        package var index = 0
        package var line = 1
        package var lineStart = 0

        package init(index: Int = 0, line: Int = 1, lineStart: Int = 0) {
            self.index = index
            self.line = line
            self.lineStart = lineStart
        }
    }

    /// Deeper nesting is refused rather than risking the stack on hostile input.
    package static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private let workspace: Workspace
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    package init(_ bytes: UnsafeBufferPointer<UInt8>, workspace: Workspace = Workspace()) {
        self.bytes = bytes
        self.workspace = workspace
    }

    /// A parser that starts at `position` of `bytes` (a window of a longer text, continued where it left off).
    package init(_ bytes: UnsafeBufferPointer<UInt8>, workspace: Workspace, at position: Position) {
        self.init(bytes, workspace: workspace)
        index = position.index
        line = position.line
        lineStart = position.lineStart
    }

    package var position: Position { Position(index: index, line: line, lineStart: lineStart) }

    /// The next byte, if any.
    package var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Parses one complete JSON text (surrounding whitespace allowed, nothing else after it).
    package static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, workspace: Workspace = Workspace()
    ) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes, workspace: workspace)
        return try parser.parseDocument()
    }

    package static func parse(_ data: Data) throws(Failure) -> JSONValue {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(Failure) in try parse(raw.bindMemory(to: UInt8.self)) }
        }
        return try result.get()
    }

    package mutating func parseDocument() throws(Failure) -> JSONValue {
        skipByteOrderMark()
        skipWhitespace()
        let value = try parseValue()
        try finishDocument()
        return value
    }

    /// After the last value: only whitespace may follow.
    package mutating func finishDocument() throws(Failure) {
        skipWhitespace()
        if index < bytes.count { throw failure("unexpected \(describeCurrent()) after the JSON value") }
    }

    // MARK: - Values

    package mutating func parseValue() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        try enterContainer()
        index += 1  // {
        let base = workspace.count
        defer { workspace.drop(from: base) }  // when a member failed to parse; a taken object left none
        skipWhitespace()
        if try consume(UInt8(ascii: "}")) {
            depth -= 1
            return .object([:])
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a string key in an object, found \(describeCurrent())")
            }
            let key = try parseString()
            skipWhitespace()
            guard try consume(UInt8(ascii: ":")) else {
                throw failure("expected ':' after an object key, found \(describeCurrent())")
            }
            skipWhitespace()
            let value = try parseValue()
            workspace.push((key, value))
            skipWhitespace()
            if try consume(UInt8(ascii: ",")) { continue }
            if try consume(UInt8(ascii: "}")) { break }
            throw failure("expected ',' or '}' in an object, found \(describeCurrent())")
        }
        depth -= 1
        return .object(workspace.takeObject(from: base))
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try enterContainer()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if try consume(UInt8(ascii: "]")) {
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if try consume(UInt8(ascii: ",")) { continue }
            if try consume(UInt8(ascii: "]")) { break }
            throw failure("expected ',' or ']' in an array, found \(describeCurrent())")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func enterContainer() throws(Failure) {
        depth += 1
        if depth > Self.maximumDepth { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    // MARK: - Strings

    package mutating func parseString() throws(Failure) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes, the common case, decodes straight from the input bytes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("unescaped control character in a string") }
            index += 1
        }
        guard index < bytes.count else { throw failure("unterminated string") }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"): appendScalar(try parseUnicodeEscape(), to: &buffer)
                default:
                    index -= 1
                    throw failure("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                }
            case 0..<0x20:
                throw failure("unescaped control character in a string")
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    /// After `\u`: four hex digits, and a following `\uDC00`-style low surrogate when the first is a high one.
    /// A lone surrogate becomes U+FFFD, as most parsers do, rather than failing the whole line.
    private mutating func parseUnicodeEscape() throws(Failure) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800..<0xDC00).contains(first) {
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                let saved = index
                index += 2
                let second = try parseHex4()
                if (0xDC00..<0xE000).contains(second) {
                    let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    return Unicode.Scalar(value) ?? "\u{FFFD}"
                }
                index = saved
            }
            return "\u{FFFD}"
        }
        return Unicode.Scalar(first) ?? "\u{FFFD}"
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("incomplete \\u escape", truncated: true) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func appendScalar(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        UTF8.encode(scalar) { buffer.append($0) }
    }

    // MARK: - Numbers

    /// Integers without fraction or exponent that fit an `Int` stay integers; everything else is a Double.
    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = index
        switch Self.scanNumber(bytes, from: start) {
        case .invalid(let reason, let position):
            index = position
            throw failure(reason)
        case .number(let end, let isInteger):
            index = end
            guard let value = Self.numberValue(UnsafeBufferPointer(rebasing: bytes[start..<end]), isInteger: isInteger) else {
                index = start
                throw failure("number out of range")
            }
            return value
        }
    }

    // MARK: - Lexing helpers

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else {
            throw failure("unexpected \(describeCurrent()), expected a value", truncated: true)
        }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw failure("unexpected \(describeCurrent()), expected a value") }
        index += count
    }

    package mutating func consume(_ byte: UInt8) throws(Failure) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    @inline(__always)
    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func skipByteOrderMark() {
        if index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    package func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    /// A failure at the current byte; at the end of the bytes it is `truncated` (more text could mend it).
    package func failure(_ message: String, truncated: Bool = false) -> Failure {
        Failure(message: message, line: line, column: index - lineStart + 1, truncated: truncated || index >= bytes.count)
    }
}
