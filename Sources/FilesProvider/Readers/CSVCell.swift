import Domain
import Foundation

/// How a CSV cell becomes a JSON value. CSV has no types, so the rule is deliberately narrow and predictable:
///
/// - an empty cell is `null` (CSV cannot tell empty from missing);
/// - `true` and `false` (exactly, lower case) are booleans;
/// - a cell spelled exactly as a JSON number is a number: an integer when it has no fraction or exponent and
///   fits 64 bits, otherwise a double. JSON forbids leading zeros, `+`, spaces and `.5`, so zip codes
///   (`01234`), phone numbers with `+`, and padded values stay strings;
/// - everything else is the string as written.
enum CSVCell {
    static func value(of cell: String) -> JSONValue {
        var cell = cell
        return cell.withUTF8 { value(of: $0) } ?? .string(cell)
    }

    /// The value of a cell's UTF-8 bytes; nil when they are not valid UTF-8.
    static func value(of bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        guard let first = bytes.first, let last = bytes.last else { return .null }
        let startsLikeNumber = first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
        let endsLikeNumber = last >= UInt8(ascii: "0") && last <= UInt8(ascii: "9")
        // A date (`2026-11-03`) starts and ends like one too: the scan stops at its first '-' without a word.
        if startsLikeNumber, endsLikeNumber, let number = JSONParser.number(exactly: bytes) { return number }
        if first == UInt8(ascii: "t"), bytes.elementsEqual("true".utf8) { return .bool(true) }
        if first == UInt8(ascii: "f"), bytes.elementsEqual("false".utf8) { return .bool(false) }
        return text(bytes).map(JSONValue.string)
    }

    /// The bytes as a string, or nil when they are not valid UTF-8. (`String(validating:as:)` looks up generic
    /// metadata on every call: a tenth of the CSV reader's time.)
    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        // Decoding repairs invalid bytes with U+FFFD, which changes them: unchanged bytes were valid.
        if bytes.allSatisfy({ $0 < 0x80 }) || string.utf8.elementsEqual(bytes) { return string }
        return nil
    }
}
