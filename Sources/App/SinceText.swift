import Domain
import Foundation
import ProviderKit

/// `--since` (and a server's `?since=`): a duration back from now (`90`, `30m`, `2h`, `1d12h`, `1w`) or a
/// time (`2026-11-20`, taken as midnight UTC, or `2026-11-20T08:00:00Z` with any offset).
public enum SinceText {
    /// The time `text` means, or nil when it is neither a positive duration nor an ISO 8601 date.
    public static func date(_ text: String, now: Date) -> Date? {
        if let seconds = DurationText.seconds(text) { return now.addingTimeInterval(-seconds) }
        return ISO8601.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
