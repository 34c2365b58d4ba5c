import Domain
import Foundation

/// Reads a provider's options, collecting every problem with its JSON path instead of stopping at the first.
///
///     let reader = OptionsReader(configuration, specs: options)
///     let cities = reader.require("cities", as: [String].self)
///     let units = reader.value("units", as: UnitSystem.self) ?? .metric
///     try reader.finish()   // throws all problems: wrong types, missing required keys, unknown keys
///
/// Values that are absent or invalid read as nil; `finish()` is what reports. Not thread-safe: use it inside
/// `makeSource` only.
public final class OptionsReader {
    private let object: JSONObject
    private let path: String
    private let specs: [OptionSpec]
    private let configuration: SourceConfiguration
    private var problems: [ManifestProblem] = []

    /// A reader of `configuration.options` against `specs`. Options that are not an object (nor null, which reads as
    /// no options) are recorded as a problem at once.
    public init(_ configuration: SourceConfiguration, specs: [OptionSpec]) {
        self.path = configuration.optionsPath
        self.specs = specs
        self.configuration = configuration
        switch configuration.options {
        case .object(let object):
            self.object = object
        case .null:
            self.object = [:]
        case let other:
            self.object = [:]
            problems.append(ManifestProblem(path: path, message: "expected an object, found \(other.typeName)"))
        }
    }

    /// The JSON path of a key, for problems a provider reports itself.
    public func path(of key: String) -> String { "\(path).\(key)" }

    /// A path from the options, resolved against the manifest's directory (see `SourceConfiguration.resolvePath`).
    public func resolvePath(_ path: String) -> URL { configuration.resolvePath(path) }

    /// Whether `key` is given with a value other than null.
    public func has(_ key: String) -> Bool { object[key] != nil && object[key] != .null }

    /// The value at `key`, or nil when absent, null or invalid (invalid is recorded as a problem).
    public func value<T: OptionValue>(_ key: String, as type: T.Type = T.self) -> T? {
        guard let raw = object[key], raw != .null else { return nil }
        do throws(ManifestError) {
            return try T(option: raw, path: path(of: key))
        } catch {
            problems.append(contentsOf: error.problems)
            return nil
        }
    }

    /// Like `value`, and records a problem when the key is absent.
    public func require<T: OptionValue>(_ key: String, as type: T.Type = T.self) -> T? {
        guard has(key) else {
            problems.append(ManifestProblem(path: path(of: key), message: "required option is missing"))
            return nil
        }
        return value(key, as: type)
    }

    /// Records a problem the provider found itself (a range, a combination of options).
    public func problem(_ key: String?, _ message: String) {
        problems.append(ManifestProblem(path: key.map(path(of:)) ?? path, message: message))
    }

    /// Throws every problem seen so far, plus keys that no spec names (with a suggestion).
    public func finish() throws(ManifestError) {
        let known = specs.map(\.name)
        for key in object.keys.sorted() where !known.contains(key) {
            let hint = Suggestion.didYouMean(key, in: known)
            problems.append(ManifestProblem(
                path: path(of: key),
                message: "unknown option\(hint); this provider accepts: \(known.joined(separator: ", "))"))
        }
        if !problems.isEmpty { throw ManifestError(problems) }
    }
}

/// A type an option's JSON can be read as. Conform your own option types (a city given as a name or an
/// object, say) and throw problems with the given path.
public protocol OptionValue {
    /// Reads `option`, the JSON at `path`, or throws every problem with its path under `path`.
    init(option: JSONValue, path: String) throws(ManifestError)
}

extension OptionValue {
    /// The standard "expected …, found …" problem.
    public static func mismatch(_ expected: String, _ found: JSONValue, at path: String) -> ManifestError {
        ManifestError(path: path, "expected \(expected), found \(found.typeName)")
    }
}

extension String: OptionValue {
    /// A JSON string, as written.
    public init(option: JSONValue, path: String) throws(ManifestError) {
        guard case .string(let value) = option else { throw Self.mismatch("a string", option, at: path) }
        self = value
    }
}

extension Int: OptionValue {
    /// A JSON integer, or a number with no fraction below 10^15 (`3.0`).
    public init(option: JSONValue, path: String) throws(ManifestError) {
        switch option {
        case .int(let value): self = value
        case .double(let value) where value == value.rounded() && abs(value) < 1e15: self = Int(value)
        default: throw Self.mismatch("an integer", option, at: path)
        }
    }
}

extension Double: OptionValue {
    /// Any JSON number.
    public init(option: JSONValue, path: String) throws(ManifestError) {
        switch option {
        case .int(let value): self = Double(value)
        case .double(let value): self = value
        default: throw Self.mismatch("a number", option, at: path)
        }
    }
}

extension Bool: OptionValue {
    /// JSON `true` or `false` (not `"true"` nor 1).
    public init(option: JSONValue, path: String) throws(ManifestError) {
        guard case .bool(let value) = option else { throw Self.mismatch("true or false", option, at: path) }
        self = value
    }
}

extension JSONValue: OptionValue {
    /// Any JSON value, unchecked: for options the provider reads itself.
    public init(option: JSONValue, path: String) throws(ManifestError) {
        self = option
    }
}

extension Array: OptionValue where Element: OptionValue {
    /// A JSON array whose every element reads as `Element`; the problems of all elements, at `path[i]`, together.
    public init(option: JSONValue, path: String) throws(ManifestError) {
        guard case .array(let values) = option else {
            throw Self.mismatch("an array", option, at: path)
        }
        var problems: [ManifestProblem] = []
        var result: [Element] = []
        for (index, value) in values.enumerated() {
            do throws(ManifestError) {
                result.append(try Element(option: value, path: "\(path)[\(index)]"))
            } catch {
                problems.append(contentsOf: error.problems)
            }
        }
        if !problems.isEmpty { throw ManifestError(problems) }
        self = result
    }
}

extension Dictionary: OptionValue where Key == String, Value: OptionValue {
    /// A JSON object whose every value reads as `Value`; the problems of all members, at `path.key`, together.
    public init(option: JSONValue, path: String) throws(ManifestError) {
        guard case .object(let members) = option else { throw Self.mismatch("an object", option, at: path) }
        var problems: [ManifestProblem] = []
        var result: [String: Value] = [:]
        for (key, value) in members {
            do throws(ManifestError) {
                result[key] = try Value(option: value, path: "\(path).\(key)")
            } catch {
                problems.append(contentsOf: error.problems)
            }
        }
        if !problems.isEmpty { throw ManifestError(problems) }
        self = result
    }
}

/// String enums read from options list their allowed values when the value is wrong.
public protocol OptionEnum: OptionValue, RawRepresentable, CaseIterable where RawValue == String {}

extension OptionEnum {
    /// One of the cases' raw values; anything else is a problem listing them, with the closest as a suggestion.
    public init(option: JSONValue, path: String) throws(ManifestError) {
        let allowed = Self.allCases.map(\.rawValue)
        guard case .string(let raw) = option else {
            throw Self.mismatch("one of \(allowed.joined(separator: ", "))", option, at: path)
        }
        guard let value = Self(rawValue: raw) else {
            throw ManifestError(path: path, "'\(raw)' is not one of \(allowed.joined(separator: ", "))\(Suggestion.didYouMean(raw, in: allowed))")
        }
        self = value
    }
}

extension UnitSystem: OptionEnum {}
extension IssueQuery.State: OptionEnum {}
