import Domain
import Foundation
import ProviderKit

/// Which row fields become a record's `title`, `id`, `date` and `url` (the `fields` option).
///
/// A mapped name is looked up as a key, then as a dotted path into nested objects (`"author.name"`).
/// Unmapped, each looks for the first present, non-null field among its defaults:
/// - `title`: `title`, `name`, `subject`; else the record's id;
/// - `id`: `id`, `uuid`, `key`; else `<file>:<line>` (the file as written, the row's line or array position);
/// - `date`: `date`, `createdAt`, `updated`, `timestamp`;
/// - `url`: `url`, `link`, `href`.
/// Dates are ISO 8601 strings or epoch numbers (seconds; values above 10^11 are taken as milliseconds).
/// URLs must be absolute (have a scheme). A value that does not convert leaves `date`/`url` empty; the
/// field itself is always kept in `fields`.
public struct FieldMapping: Sendable, Hashable {
    public enum Target: String, CaseIterable, Sendable {
        case title, id, date, url

        var defaults: [String] {
            switch self {
            case .title: ["title", "name", "subject"]
            case .id: ["id", "uuid", "key"]
            case .date: ["date", "createdAt", "updated", "timestamp"]
            case .url: ["url", "link", "href"]
            }
        }
    }

    private var mapped: [Target: String]

    public init(_ mapped: [Target: String] = [:]) {
        self.mapped = mapped
    }

    /// Builds the record for one row of the file `unit` (the file's path as written).
    public func record(from row: FileRow, unit: String) -> Record {
        let fields = row.fields
        let found = mapped.isEmpty ? Self.defaultValues(in: fields) : mappedValues(in: fields)
        let id = found.id.flatMap(Self.identifier) ?? "\(unit):\(row.line)"
        let title = found.title.flatMap(Self.text) ?? id
        return Record(id: id, title: title, url: found.url.flatMap(Self.url), date: found.date.flatMap(Self.date), fields: fields)
    }

    /// The values of the four targets in a row.
    private struct Found {
        var title: JSONValue?
        var id: JSONValue?
        var date: JSONValue?
        var url: JSONValue?
    }

    private func mappedValues(in fields: JSONObject) -> Found {
        func value(_ target: Target) -> JSONValue? {
            guard let name = mapped[target] else {
                return target.defaults.lazy.compactMap { fields[$0] }.first { $0 != .null }
            }
            let value = fields[name] ?? Self.lookUp(path: name, in: fields)
            return value == .null ? nil : value
        }
        return Found(title: value(.title), id: value(.id), date: value(.date), url: value(.url))
    }

    /// Every target from its defaults in one walk over the row, rather than a hash lookup per default name (a
    /// dozen a row, most of them misses): each key is compared with the default names of its length only, and
    /// the earliest default present and not null wins, as in `Target.defaults`' order.
    private static func defaultValues(in fields: JSONObject) -> Found {
        var found = Found()
        var ranks = (title: Int.max, id: Int.max, date: Int.max, url: Int.max)
        for (key, value) in fields {
            guard let (target, rank) = defaultSlot(of: key) else { continue }
            if case .null = value { continue }
            switch target {
            case .title where rank < ranks.title: (found.title, ranks.title) = (value, rank)
            case .id where rank < ranks.id: (found.id, ranks.id) = (value, rank)
            case .date where rank < ranks.date: (found.date, ranks.date) = (value, rank)
            case .url where rank < ranks.url: (found.url, ranks.url) = (value, rank)
            default: break
            }
        }
        return found
    }

    /// `Target.defaults` by the names' UTF-8 length: what a key of that length can be (a dozen names, 2–9 bytes).
    private static let defaultsByLength: [[(name: String, target: Target, rank: Int)]] = {
        var table = [[(name: String, target: Target, rank: Int)]](repeating: [], count: 16)
        for target in Target.allCases {
            for (rank, name) in target.defaults.enumerated() { table[name.utf8.count].append((name, target, rank)) }
        }
        return table
    }()

    /// Which target's defaults name `key`, and its place among them: only the names of the key's length are
    /// compared (at most five), no hashing.
    static func defaultSlot(of key: String) -> (Target, rank: Int)? {
        let length = key.utf8.count
        guard length < defaultsByLength.count else { return nil }
        for candidate in defaultsByLength[length] where candidate.name == key { return (candidate.target, candidate.rank) }
        return nil
    }

    private static func lookUp(path: String, in fields: JSONObject) -> JSONValue? {
        guard path.contains(".") else { return nil }
        var current: JSONValue = .object(fields)
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard let next = current[String(component)] else { return nil }
            current = next
        }
        return current
    }

    // MARK: - Conversions

    private static func identifier(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string): string.isEmpty ? nil : string
        case .int, .double, .bool: value.displayText
        default: nil
        }
    }

    private static func text(_ value: JSONValue) -> String? {
        let text = value.displayText
        return text.isEmpty ? nil : text
    }

    static func date(_ value: JSONValue) -> Date? {
        switch value {
        case .int(let seconds): epoch(Double(seconds))
        case .double(let seconds): epoch(seconds)
        case .string(let string):
            if let first = string.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
                string.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let seconds = Double(string)
            {
                epoch(seconds)
            } else {
                ISO8601.date(from: string)
            }
        default: nil
        }
    }

    private static func epoch(_ value: Double) -> Date? {
        guard value.isFinite else { return nil }
        return Date(timeIntervalSince1970: abs(value) > 1e11 ? value / 1000 : value)
    }

    private static func url(_ value: JSONValue) -> URL? {
        guard case .string(let string) = value, let url = URL(string: string), url.scheme != nil else { return nil }
        return url
    }
}

// MARK: - Reading the option

extension FieldMapping: OptionValue {
    /// `{"title": "name", "date": "createdAt"}`: keys from `Target`, values non-empty field names.
    public init(option: JSONValue, path: String) throws(ManifestError) {
        guard case .object(let members) = option else { throw Self.mismatch("an object", option, at: path) }
        let targets = Target.allCases.map(\.rawValue)
        var problems: [ManifestProblem] = []
        var mapped: [Target: String] = [:]
        for key in members.keys.sorted() {
            let value = members[key]!
            guard let target = Target(rawValue: key) else {
                problems.append(ManifestProblem(
                    path: "\(path).\(key)",
                    message: "unknown field\(Suggestion.didYouMean(key, in: targets)); mappable fields: \(targets.joined(separator: ", "))"))
                continue
            }
            guard case .string(let name) = value, !name.isEmpty else {
                problems.append(ManifestProblem(
                    path: "\(path).\(key)",
                    message: value.stringValue == nil ? "expected a field name (a string), found \(value.typeName)" : "expected a field name, found an empty string"))
                continue
            }
            mapped[target] = name
        }
        if !problems.isEmpty { throw ManifestError(problems) }
        self.init(mapped)
    }
}
