import Domain
import Foundation

/// `since` of the issue trackers: an ISO 8601 time (`2026-11-01T00:00:00Z`, `2026-11-01`) or a span back from now
/// (`30m`, `24h`, `7d`, `2w`), resolved when the source is built.
public struct SinceOption: OptionValue {
    /// The earliest time asked for: the ISO 8601 time as given, or now minus the span.
    public var date: Date

    /// Reads the option, a span counted back from now.
    public init(option: JSONValue, path: String) throws(ManifestError) {
        try self.init(option: option, path: path, now: Date())
    }

    /// Reads the option, a span counted back from `now`; anything but an ISO 8601 time or a span with a unit
    /// (`30m`, `24h`, `7d`, `2w`) is a problem at `path`.
    public init(option: JSONValue, path: String, now: Date) throws(ManifestError) {
        guard case .string(let raw) = option else {
            throw Self.mismatch("an ISO 8601 date or a relative time like \"7d\"", option, at: path)
        }
        let text = raw.trimmingCharacters(in: .whitespaces)
        if let absolute = ISO8601.date(from: text) {
            date = absolute
        } else if text.last?.isLetter == true, let seconds = DurationText.seconds(text) {  // a unit: `7` is no date
            date = now.addingTimeInterval(-seconds)
        } else {
            throw ManifestError(path: path, "expected an ISO 8601 date (\"2026-11-01T00:00:00Z\") or a relative time "
                + "(\"30m\", \"24h\", \"7d\", \"2w\"), found '\(raw)'")
        }
    }
}
