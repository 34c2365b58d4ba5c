import Foundation

/// A JSON value: the shape of an item's `fields` and of a provider's manifest `options`.
///
/// Integers and floating-point numbers stay distinct so that `"count": 3` never prints as `3.0`.
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in an `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array, its elements in order.
    case array([JSONValue])
    /// An object.
    case object(JSONObject)
}

extension JSONValue {
    /// The value's JSON type name, for error messages ("expected a string, found an array").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The string, or nil when the value is not a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object, or nil when the value is not an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, or nil when the value is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The member `key` of an object; nil when the value is not an object or has no such member.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// A short plain-text rendering for tables and CSV cells: strings unquoted, containers as compact JSON.
    public var displayText: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): JSONValue.format(value)
        case .string(let value): value
        case .array, .object: compactJSON
        }
    }

    /// Compact JSON text with sorted keys: stable across runs (see `JSONWriter`).
    public var compactJSON: String {
        var writer = JSONWriter()
        writer.value(self)
        return writer.text
    }

    /// Shortest round-tripping text for a double; integral values keep no fraction ("21" not "21.0").
    /// A measured number as reported: an integer when it is whole (`1021`), else a fraction (`1020.95`).
    public static func number(_ value: Double) -> JSONValue {
        if value.rounded() == value, let whole = Int(exactly: value) { return .int(whole) }
        return .double(value)
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value; whole numbers that fit in an `Int` become ``int(_:)``, others ``double(_:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode(JSONObject.self))
        }
    }

    /// Encodes the value as the JSON it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Why text is not JSON: the 1-based line and column of the first byte that breaks it.
    public struct SyntaxError: Error, Hashable, CustomStringConvertible {
        /// The 1-based line of the first byte that breaks the text.
        public var line: Int
        /// The 1-based column (in bytes) of that byte.
        public var column: Int
        /// What is wrong there.
        public var message: String

        /// An error at `line`, `column`.
        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        /// `line L, column C: message`.
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Parses JSON text (any top-level value; integers stay integers). UTF-8, or UTF-16/UTF-32 with a byte order
    /// mark (as some editors save), which is converted first.
    public static func parse(_ data: Data) throws(SyntaxError) -> JSONValue {
        do throws(JSONParser.Failure) {
            if let converted = utf8(fromUnicodeWithByteOrderMark: data) { return try JSONParser.parse(converted) }
            return try JSONParser.parse(data)
        } catch {
            throw SyntaxError(line: error.line, column: error.column, message: error.message)
        }
    }

    /// The text of UTF-16 or UTF-32 data as UTF-8 (its byte order mark dropped); nil for anything else.
    private static func utf8(fromUnicodeWithByteOrderMark data: Data) -> Data? {
        let encodings: [([UInt8], String.Encoding)] = [
            ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian), ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian),
            ([0xFE, 0xFF], .utf16BigEndian), ([0xFF, 0xFE], .utf16LittleEndian),
        ]
        guard let (mark, encoding) = encodings.first(where: { data.starts(with: $0.0) }),
              let text = String(data: data.dropFirst(mark.count), encoding: encoding) else { return nil }
        return Data(text.utf8)
    }

    /// Converts a `JSONSerialization` result. NSNumber booleans, integers and doubles are told apart.
    public init(foundation object: Any) {
        switch object {
        case let value as String:
            self = .string(value)
        case let value as NSNumber:
            self = JSONValue(number: value)
        case let value as [Any]:
            self = .array(value.map(JSONValue.init(foundation:)))
        case let value as [String: Any]:
            self = .object(JSONObject(value.mapValues(JSONValue.init(foundation:))))
        default:
            self = .null
        }
    }

    private init(number: NSNumber) {
        #if canImport(Darwin)
        if CFGetTypeID(number) == CFBooleanGetTypeID() {
            self = .bool(number.boolValue)
            return
        }
        #endif
        let type = String(cString: number.objCType)
        if type == "c" || type == "B" {
            self = .bool(number.boolValue)
        } else if ["q", "l", "i", "s", "Q", "L", "I", "S"].contains(type) {
            self = .int(number.intValue)
        } else {
            let double = number.doubleValue
            self = .double(double)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// `"text"` is ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `3` is ``int(_:)``.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `2.5` is ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `true` is ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[1, "a"]` is ``array(_:)``.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `["key": 1]` is ``object(_:)``; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(members: elements.map { (key: $0.0, value: $0.1) }))
    }
    /// `nil` is ``null``.
    public init(nilLiteral: ()) { self = .null }
}
