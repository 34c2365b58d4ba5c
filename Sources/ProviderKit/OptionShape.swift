import Domain
import Foundation

/// The JSON an option accepts, as the manifest's JSON Schema states it (`aggregate schema`), so editors
/// complete and check options from the same `OptionSpec`s that validate them.
///
/// Most specs never name one: `OptionSpec.shape` reads it from the spec's `type` words ("integer 1–20",
/// "array of strings", "open|closed|all"). A spec whose words say more than that grammar (a value that is a
/// name or an object) gives its shape explicitly.
public indirect enum OptionShape: Sendable, Hashable {
    /// A string.
    case string
    /// An integer, within `minimum...maximum` where they are given.
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    /// Any number.
    case number
    /// `true` or `false`.
    case boolean
    /// One of these strings.
    case oneOf([String])
    /// An array; nil: elements of any JSON.
    case array(of: OptionShape?)
    /// An object whose values all have one shape; nil: any JSON values.
    case object(values: OptionShape?)
    /// An object with these keys and no others.
    case record([String: OptionShape], required: [String])
    /// Any of these.
    case anyOf([OptionShape])
    /// Any JSON at all (an exec program's `config`).
    case any

    /// The shape `type`'s words describe, or nil when they follow none of the forms below (the spec must then
    /// give one). Forms: `string …`, `integer`, `integer A–B`, `integer ≥ A`, `number …`, `boolean`,
    /// `a|b|c`, `array of strings …`, `array …`, `object of strings`, `object …`, `any JSON`.
    public static func inferred(from type: String) -> OptionShape? {
        let words = type.trimmingCharacters(in: .whitespaces)
        let head = words.split(separator: " ").first.map(String.init) ?? ""
        switch head {
        case "string": return .string
        case "number": return .number
        case "boolean": return .boolean
        case "integer": return integer(words.dropFirst("integer".count).trimmingCharacters(in: .whitespaces))
        case "array":
            return words.hasPrefix("array of strings") || words.hasPrefix("array of \"") && words.contains("strings")
                ? .array(of: .string) : .array(of: nil)
        case "object": return words.hasPrefix("object of strings") ? .object(values: .string) : .object(values: nil)
        case "any": return words == "any JSON" ? .any : nil
        default: break
        }
        let choices = words.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        if choices.count > 1, choices.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) { return .oneOf(choices) }
        return nil
    }

    /// `""`, `"1–20"` (en dash or hyphen), `"≥ 1"`.
    private static func integer(_ range: String) -> OptionShape? {
        if range.isEmpty { return .integer() }
        if range.hasPrefix("≥") { return Int(range.dropFirst().trimmingCharacters(in: .whitespaces)).map { .integer(minimum: $0) } }
        let bounds = range.split(whereSeparator: { $0 == "–" || $0 == "-" }).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard bounds.count == 2, let low = bounds[0], let high = bounds[1] else { return nil }
        return .integer(minimum: low, maximum: high)
    }

    /// The JSON Schema (draft 2020-12) of the shape.
    public var jsonSchema: JSONValue {
        switch self {
        case .string: return .object(["type": .string("string")])
        case .number: return .object(["type": .string("number")])
        case .boolean: return .object(["type": .string("boolean")])
        case .integer(let minimum, let maximum):
            var schema: JSONObject = ["type": .string("integer")]
            if let minimum { schema["minimum"] = .int(minimum) }
            if let maximum { schema["maximum"] = .int(maximum) }
            return .object(schema)
        case .oneOf(let choices): return .object(["enum": .array(choices.map(JSONValue.string))])
        case .array(let element):
            var schema: JSONObject = ["type": .string("array")]
            if let element { schema["items"] = element.jsonSchema }
            return .object(schema)
        case .object(let values):
            var schema: JSONObject = ["type": .string("object")]
            if let values { schema["additionalProperties"] = values.jsonSchema }
            return .object(schema)
        case .record(let properties, let required):
            return .object([
                "type": .string("object"),
                "properties": .object(JSONObject(properties.mapValues(\.jsonSchema))),
                "required": .array(required.map(JSONValue.string)),
                "additionalProperties": .bool(false),
            ])
        case .anyOf(let shapes): return .object(["anyOf": .array(shapes.map(\.jsonSchema))])
        case .any: return .object([:])
        }
    }
}

extension OptionSpec {
    /// The option's JSON shape: the one the spec gives, else the one its `type` words describe, else any JSON.
    public var shape: OptionShape { explicitShape ?? OptionShape.inferred(from: type) ?? .any }

    /// Whether the shape is known (given or read from `type`); a test holds every registered option to it.
    public var hasKnownShape: Bool { explicitShape != nil || OptionShape.inferred(from: type) != nil }
}
