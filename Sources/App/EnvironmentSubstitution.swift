import Domain
import Foundation

/// Replaces `${VAR}` and `${VAR:-default}` in every string of a JSON value from the environment.
/// `$${` writes a literal `${`.
public enum EnvironmentSubstitution {
    public struct Result: Sendable, Equatable {
        public var value: JSONValue
        /// Variables that were referenced without a default and are not set (or are empty), in first-use order.
        public var missing: [String]
    }

    public static func apply(to value: JSONValue, environment: [String: String]) -> Result {
        var missing: [String] = []
        let substituted = substitute(value, environment, &missing)
        return Result(value: substituted, missing: missing)
    }

    private static func substitute(_ value: JSONValue, _ environment: [String: String], _ missing: inout [String]) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(expand(text, environment, &missing))
        case .array(let values):
            return .array(values.map { substitute($0, environment, &missing) })
        case .object(let members):
            return .object(members.mapValues { substitute($0, environment, &missing) })
        default:
            return value
        }
    }

    static func expand(_ text: String, _ environment: [String: String], _ missing: inout [String]) -> String {
        // Most strings hold no `$`: a byte scan, not Foundation's substring search (a manifest of 1,000 sources
        // spent 12 % of its loading in it).
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let afterDollar = rest[rest.index(after: dollar)...]
            if afterDollar.hasPrefix("${") {  // `$${` escapes a literal `${`
                output += "${"
                rest = afterDollar.dropFirst(2)
                continue
            }
            guard afterDollar.hasPrefix("{"), let close = afterDollar.firstIndex(of: "}") else {
                output += "$"
                rest = afterDollar
                continue
            }
            let body = afterDollar[afterDollar.index(after: afterDollar.startIndex)..<close]
            let (name, fallback): (Substring, Substring?) =
                if let range = body.range(of: ":-") { (body[..<range.lowerBound], body[range.upperBound...]) } else { (body, nil) }
            if let value = environment[String(name)], !value.isEmpty {
                output += value
            } else if let fallback {
                output += fallback
            } else {
                if !missing.contains(String(name)) { missing.append(String(name)) }
                output += "${\(name)}"
            }
            rest = afterDollar[afterDollar.index(after: close)...]
        }
        output += rest
        return output
    }
}
