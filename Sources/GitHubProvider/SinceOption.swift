import Domain
import Foundation
import ProviderKit

/// `since`: an ISO 8601 time (`2026-11-01T00:00:00Z`, `2026-11-01`) or a span back from now
/// (`30m`, `24h`, `7d`, `2w`), resolved when the source is built.
struct SinceOption: OptionValue {
    var date: Date

    init(option: JSONValue, path: String) throws(ManifestError) {
        try self.init(option: option, path: path, now: Date())
    }

    init(option: JSONValue, path: String, now: Date) throws(ManifestError) {
        guard case .string(let raw) = option else {
            throw Self.mismatch("an ISO 8601 date or a relative time like \"7d\"", option, at: path)
        }
        let text = raw.trimmingCharacters(in: .whitespaces)
        if let absolute = ISO8601.date(from: text) {
            date = absolute
        } else if let seconds = Self.relativeSeconds(text) {
            date = now.addingTimeInterval(-seconds)
        } else {
            throw ManifestError(path: path, "expected an ISO 8601 date (\"2026-11-01T00:00:00Z\") or a relative time "
                + "(\"30m\", \"24h\", \"7d\", \"2w\"), found '\(raw)'")
        }
    }

    /// `7d` → 604 800; nil unless a positive whole number followed by `m`, `h`, `d` or `w`.
    static func relativeSeconds(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let count = Int(text.dropLast()), count > 0 else { return nil }
        let unitSeconds: TimeInterval
        switch unit {
        case "m": unitSeconds = 60
        case "h": unitSeconds = 3600
        case "d": unitSeconds = 86_400
        case "w": unitSeconds = 604_800
        default: return nil
        }
        return TimeInterval(count) * unitSeconds
    }
}
