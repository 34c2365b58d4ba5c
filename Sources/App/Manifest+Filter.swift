import Domain
import Foundation
import JQ
import ProviderKit

extension Manifest {
    /// `"filter"` (in `defaults` or a source): which items are kept, decided before the item history, `--new`,
    /// the sinks and the output see them. `{"include": {FIELD: REGEX, …}, "exclude": {…}, "jq": "select(…)"}`,
    /// any of the three; an item must pass each one given.
    public struct Filter: Sendable, Hashable {
        /// The filter as written.
        public let rules: JSONObject
        /// Where it is written (`defaults.filter`, `sources[2].filter`).
        public let path: String
        /// Compiled once when the manifest is read; shared by every run and source that uses it.
        public let compiled: any ItemFilter

        public static func == (lhs: Filter, rhs: Filter) -> Bool { lhs.rules == rhs.rules && lhs.path == rhs.path }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(rules)
            hasher.combine(path)
        }
    }
}

extension Manifest.Source {
    /// What its items pass (`filters` in order); nil when every item is kept.
    var itemFilter: (any ItemFilter)? {
        switch filters.count {
        case 0: nil
        case 1: filters[0].compiled
        default: ItemFilterChain(filters.map(\.compiled))
        }
    }
}

/// `"filter": {"jq": …}`: the item (the output contract's shape, `source` included) through a jq program on the
/// system's libjq; it is kept when the program yields anything but `false` or `null`. An item the program fails
/// on (an error, a halt) is kept and counted, never dropped unseen.
struct JQItemFilter: ItemFilter {
    let expression: JQExpression

    func apply(_ items: [Item], source: String) -> FilteredItems {
        var result = FilteredItems(kept: [], dropped: 0)
        result.kept.reserveCapacity(items.count)
        var writer = JSONWriter(capacity: 1024)
        for item in items {
            writer.removeAll()
            writer.item(item, source: source)
            switch expression.keeps(writer.bytes) {
            case .success(true):
                result.kept.append(item)
            case .success(false):
                result.dropped += 1
            case .failure(let failure):
                result.kept.append(item)
                result.failed += 1
                result.failure = result.failure ?? "jq: \(failure.message) (item \(item.id))"
            }
        }
        return result
    }
}

extension ManifestLoader {
    static let filterKeys = ["include", "exclude", "jq"]

    /// Reads and compiles a `filter` object, reporting every problem (a bad regex, a jq compile error, an unknown
    /// field) with its JSON path.
    static func filter(_ value: JSONValue, path: String, report problem: (String, String) -> Void) -> Manifest.Filter? {
        guard case .object(let object) = value else {
            problem(path, "expected an object with include, exclude or jq, found \(value.typeName)")
            return nil
        }
        checkKeys(object, allowed: filterKeys, path: path, report: problem)
        if object.isEmpty { problem(path, "needs include, exclude or jq") }
        var failed = false
        func report(_ path: String, _ message: String) {
            failed = true
            problem(path, message)
        }
        let include = rules(object["include"], path: "\(path).include", report: report)
        let exclude = rules(object["exclude"], path: "\(path).exclude", report: report)
        var filters: [any ItemFilter] = []
        if !include.isEmpty || !exclude.isEmpty { filters.append(FieldPatternFilter(include: include, exclude: exclude)) }
        switch object["jq"] {
        case nil: break
        case .string(let program)? where !program.trimmingCharacters(in: .whitespaces).isEmpty:
            do throws(JQExpression.CompileError) {
                filters.append(JQItemFilter(expression: try JQExpression(program)))
            } catch {
                let lines = error.messages.split(separator: "\n").map(String.init)
                report("\(path).jq", "jq cannot compile it: " + lines.joined(separator: "; "))
            }
        case let other?:
            report("\(path).jq", "expected a jq program such as \"select(.title | test(\\\"swift\\\"; \\\"i\\\"))\", found \(other.compactJSON)")
        }
        guard !failed, !filters.isEmpty else { return nil }
        return Manifest.Filter(
            rules: object, path: path, compiled: filters.count == 1 ? filters[0] : ItemFilterChain(filters))
    }

    /// `{FIELD: REGEX, …}`.
    private static func rules(
        _ value: JSONValue?, path: String, report problem: (String, String) -> Void
    ) -> [FieldPatternFilter.Rule] {
        guard let value else { return [] }
        guard case .object(let members) = value, !members.isEmpty else {
            problem(path, "expected an object of field: regular expression, such as {\"title\": \"(?i)sponsored\"}, "
                + "found \(value.compactJSON)")
            return []
        }
        var rules: [FieldPatternFilter.Rule] = []
        for (field, pattern) in members {
            let location = "\(path).\(field)"
            guard let fieldPath = ItemFieldPath(field) else {
                let names = ItemFieldPath.members + ["fields.NAME"]
                problem(location, "unknown field\(Suggestion.didYouMean(field, in: ItemFieldPath.members)); "
                    + "filter on \(names.joined(separator: ", ")) (a dotted path into fields: fields.labels.name)")
                continue
            }
            guard case .string(let text) = pattern, !text.isEmpty else {
                problem(location, "expected a regular expression, found \(pattern.compactJSON)")
                continue
            }
            do {
                rules.append(FieldPatternFilter.Rule(field: fieldPath, pattern: try NSRegularExpression(pattern: text)))
            } catch {
                problem(location, "'\(text)' is not a valid regular expression (ICU syntax, as in \"(?i)sponsored|promoted\")")
            }
        }
        return rules
    }
}
