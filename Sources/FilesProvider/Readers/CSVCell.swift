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
        guard let first = cell.utf8.first, let last = cell.utf8.last else { return .null }
        if cell == "true" { return .bool(true) }
        if cell == "false" { return .bool(false) }
        let startsLikeNumber = first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
        let endsLikeNumber = last >= UInt8(ascii: "0") && last <= UInt8(ascii: "9")
        guard startsLikeNumber, endsLikeNumber else { return .string(cell) }
        let number = cell.withUTF8 { bytes -> JSONValue? in
            guard let value = try? JSONParser.parse(bytes) else { return nil }
            switch value {
            case .int, .double: return value
            default: return nil
            }
        }
        return number ?? .string(cell)
    }
}
