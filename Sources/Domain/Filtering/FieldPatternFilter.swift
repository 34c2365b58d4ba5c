import Foundation

/// `"filter": {"include": {FIELD: REGEX, …}, "exclude": {…}}`: regular expressions (ICU syntax, as
/// `NSRegularExpression`; `(?i)` for case-insensitive) searched in an item's fields.
///
/// An item is dropped when any `exclude` pattern matches; otherwise, when there are `include` patterns, it is
/// kept only when at least one matches. A pattern matches when it is found anywhere in one of the field's texts
/// (anchor it with `^…$` for the whole text): a list or object field offers each of its strings, numbers and
/// booleans. A missing or null field matches nothing.
public struct FieldPatternFilter: ItemFilter {
    /// One `FIELD: REGEX` pair.
    public struct Rule: Sendable {
        /// The field searched.
        public let field: ItemFieldPath
        /// The regular expression searched for in its texts.
        public let pattern: NSRegularExpression

        /// A rule searching `pattern` in `field`.
        public init(field: ItemFieldPath, pattern: NSRegularExpression) {
            self.field = field
            self.pattern = pattern
        }

        func matches(_ item: Item) -> Bool {
            field.texts(of: item).contains { text in
                pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            }
        }
    }

    /// Rules of which one must match for an item to stay (none: every item stays).
    public let include: [Rule]
    /// Rules of which none may match.
    public let exclude: [Rule]

    /// A filter with these rules.
    public init(include: [Rule], exclude: [Rule]) {
        self.include = include
        self.exclude = exclude
    }

    /// Whether `item` stays: no `exclude` rule matches, and an `include` rule does when there are any.
    public func keeps(_ item: Item) -> Bool {
        if exclude.contains(where: { $0.matches(item) }) { return false }
        return include.isEmpty || include.contains { $0.matches(item) }
    }

    /// The items that ``keeps(_:)``, in order, and how many were dropped.
    public func apply(_ items: [Item], source: String) -> FilteredItems {
        let kept = items.filter(keeps)
        return FilteredItems(kept: kept, dropped: items.count - kept.count)
    }
}

/// A field of an item as filters name it: `title`, `subtitle`, `url`, `id`, `kind`, `date`, `summary` and
/// `author` (short for `fields.summary` and `fields.author`), or `fields.` and a dotted path into `fields`
/// (`fields.labels.name`: a step into a list applies to each of its elements).
public struct ItemFieldPath: Sendable, Hashable, CustomStringConvertible {
    /// The names a path may start with, besides `fields.`.
    public static let members = ["title", "subtitle", "url", "id", "kind", "date", "summary", "author"]

    private enum Head: Sendable, Hashable { case title, subtitle, url, id, kind, date, fields }

    private let head: Head
    private let steps: [String]
    /// The path as written (`fields.labels.name`).
    public let description: String

    /// Nil when `text` names no field (`members`, or `fields.` and a path).
    public init?(_ text: String) {
        description = text
        switch text {
        case "title": (head, steps) = (.title, [])
        case "subtitle": (head, steps) = (.subtitle, [])
        case "url": (head, steps) = (.url, [])
        case "id": (head, steps) = (.id, [])
        case "kind": (head, steps) = (.kind, [])
        case "date": (head, steps) = (.date, [])
        case "summary", "author": (head, steps) = (.fields, [text])
        default:
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count > 1, parts[0] == "fields", !parts.dropFirst().contains(where: \.isEmpty) else { return nil }
            (head, steps) = (.fields, Array(parts.dropFirst()))
        }
    }

    /// The texts the path reaches in `item` (none when it is missing or null).
    public func texts(of item: Item) -> [String] {
        switch head {
        case .title: return [item.title]
        case .subtitle: return item.subtitle.map { [$0] } ?? []
        case .url: return item.url.map { [$0.absoluteString] } ?? []
        case .id: return [item.id]
        case .kind: return [item.kind.rawValue]
        case .date: return item.date.map { [ISO8601.string(from: $0)] } ?? []
        case .fields:
            var values = [JSONValue.object(item.fields)]
            for step in steps {
                values = values.flatMap { Self.step(into: $0, step) }
            }
            var texts: [String] = []
            for value in values { Self.collect(value, into: &texts) }
            return texts
        }
    }

    /// `value.step`; a list applies the step to each element.
    private static func step(into value: JSONValue, _ key: String) -> [JSONValue] {
        switch value {
        case .object(let members): members[key].map { [$0] } ?? []
        case .array(let elements): elements.flatMap { step(into: $0, key) }
        default: []
        }
    }

    private static func collect(_ value: JSONValue, into texts: inout [String]) {
        switch value {
        case .null: break
        case .array(let elements): for element in elements { collect(element, into: &texts) }
        case .object(let members): for (_, member) in members { collect(member, into: &texts) }
        default: texts.append(value.displayText)
        }
    }
}
