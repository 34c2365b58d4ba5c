import Foundation

/// The one timestamp format of the output contract: `2026-11-22T10:00:00Z` (UTC, whole seconds).
public enum ISO8601 {
    public static func string(from date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
            .timeSeparator(.colon).timeZone(separator: .omitted))
    }

    /// Parses `2026-11-22T10:00:00Z`, with or without fractional seconds, with `Z` or a numeric offset,
    /// or a plain `2026-11-22` date (taken as midnight UTC).
    public static func date(from string: String) -> Date? {
        if let date = try? Date(string, strategy: .iso8601) { return date }
        if let date = try? Date(string, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        if string.count == 10, let date = try? Date(string, strategy: .iso8601.year().month().day()) {
            return date
        }
        return nil
    }
}
