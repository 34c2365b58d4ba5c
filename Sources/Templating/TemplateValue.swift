import Domain
import Foundation
import Mustache

/// A string or number as a template (`--template`, a sink's) sees it: printed as its text, and the subject of the
/// helpers, Mustache transforms written `{{helper(name)}}`:
///
/// - `iso(date)`: the date as ISO 8601 UTC (`2026-11-22T10:00:00Z`); `day(date)`: `2026-11-22`;
///   `relative(date)`: how long ago, `3 h ago` (`just now`, `5 min ago`, `2 d ago`, `in 4 h` for the future).
/// - `truncateN(text)`: at most N characters, the last one `…` when cut (`truncate40(title)`).
/// - `padN(text)` / `padLeftN(text)`: filled with spaces to N characters, text on the left / on the right.
/// - Mustache's own string transforms: `uppercased`, `lowercased`, `capitalized`, `reversed`, `empty`.
///
/// Helpers nest: `{{pad8(relative(date))}}`.
public struct TemplateValue: MustacheTransformable, MustacheCustomRenderable, CustomStringConvertible {
    public let text: String
    /// What `relative` measures from.
    public let now: Date

    public init(text: String, now: Date) {
        self.text = text
        self.now = now
    }

    public var description: String { text }
    public var renderText: String { text }
    public var isNull: Bool { false }

    public func transform(_ name: String) -> Any? {
        if let fixed = TemplateHelpers.fixed[name] { return fixed(self).map { TemplateValue(text: $0, now: now) } }
        if let (helper, count) = TemplateHelpers.counted(name) {
            return TemplateValue(text: helper(text, count), now: now)
        }
        return text.transform(name)  // Mustache's own
    }
}

/// The helpers' names and work, also used to check a template's helper names before it runs.
enum TemplateHelpers {
    /// Helpers without a number. Nil: the value is not what the helper takes (a date that does not parse).
    static let fixed: [String: @Sendable (TemplateValue) -> String?] = [
        "iso": { value in ISO8601.date(from: value.text).map(ISO8601.string(from:)) },
        "day": { value in ISO8601.date(from: value.text).map { String(ISO8601.string(from: $0).prefix(10)) } },
        "relative": { value in ISO8601.date(from: value.text).map { relative($0, now: value.now) } },
    ]

    /// Helpers with a number in their name (`truncate40`), longest prefix first so `padLeft` wins over `pad`.
    static let numbered: [(prefix: String, apply: @Sendable (String, Int) -> String)] = [
        ("truncate", { text, count in truncated(text, to: count) }),
        ("padLeft", { text, count in String(repeating: " ", count: max(0, count - text.count)) + text }),
        ("pad", { text, count in text + String(repeating: " ", count: max(0, count - text.count)) }),
    ]

    /// Mustache's own transforms of strings, sequences and numbers, so a template may use them too.
    static let mustache: Set<String> = [
        "uppercased", "lowercased", "capitalized", "reversed", "empty", "first", "last", "count", "sorted",
        "equalzero", "plusone", "minusone", "odd", "even",
    ]

    static func counted(_ name: String) -> ((String, Int) -> String, Int)? {
        for helper in numbered where name.hasPrefix(helper.prefix) {
            guard let count = Int(name.dropFirst(helper.prefix.count)), count >= 0 else { return nil }
            return (helper.apply, count)
        }
        return nil
    }

    static func isKnown(_ name: String) -> Bool {
        fixed[name] != nil || counted(name) != nil || mustache.contains(name)
    }

    static var names: [String] {
        fixed.keys.sorted() + numbered.map { "\($0.prefix)N" } + mustache.sorted()
    }

    static func truncated(_ text: String, to count: Int) -> String {
        guard text.count > count else { return text }
        guard count > 0 else { return "" }
        return String(text.prefix(count - 1)) + "…"
    }

    /// `just now` under a minute, then `5 min ago`, `3 h ago`, `2 d ago` (whole units, rounded down);
    /// `in 4 h` for a date in the future.
    static func relative(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        let magnitude = abs(seconds)
        let amount: String =
            if magnitude < 60 { "" }
            else if magnitude < 3600 { "\(Int(magnitude / 60)) min" }
            else if magnitude < 86_400 { "\(Int(magnitude / 3600)) h" }
            else { "\(Int(magnitude / 86_400)) d" }
        if amount.isEmpty { return "just now" }
        return seconds >= 0 ? "\(amount) ago" : "in \(amount)"
    }
}
