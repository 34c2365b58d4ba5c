import Foundation

/// When and how long to wait before repeating a failed idempotent request.
///
/// Exponential backoff with jitter (`baseDelay × 2^attempt`, scaled by a random factor in 0.5…1, capped at
/// `maxDelay`), unless the server said how long with `Retry-After`. A wait that does not fit in the time
/// the source has left is not taken: the last answer is returned instead.
public struct RetryPolicy: Sendable, Hashable {
    /// Repeats after the first attempt (0 disables retrying).
    public var maxRetries: Int
    /// The first wait, doubled each attempt.
    public var baseDelay: TimeInterval
    /// The longest wait between attempts.
    public var maxDelay: TimeInterval

    /// The repeats a source makes when its manifest does not say.
    public static let defaultMaxRetries = 2

    /// A policy; negative values are taken as 0, and `maxDelay` is at least `baseDelay`.
    public init(maxRetries: Int = RetryPolicy.defaultMaxRetries, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8) {
        self.maxRetries = max(0, maxRetries)
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(self.baseDelay, maxDelay)
    }

    /// The backoff before retry number `retry` (0-based), jittered.
    public func backoff(forRetry retry: Int) -> TimeInterval {
        let exponential = min(maxDelay, baseDelay * pow(2, Double(min(retry, 30))))
        return exponential * Double.random(in: 0.5...1)
    }

    /// Statuses worth repeating: 429, 5xx except 501, and 403 when the server says when to come back
    /// (GitHub's secondary rate limit).
    public static func isRetryable(_ response: HTTPResponse) -> Bool {
        switch response.status {
        case 429, 500, 502, 503, 504: true
        case 403: response.headers.contains("Retry-After")
        default: false
        }
    }

    /// `Retry-After` as seconds from now: a number of seconds, or an HTTP date (IMF-fixdate, RFC 850 or
    /// asctime). Nil when unreadable.
    public static func parseRetryAfter(_ value: String, now: Date = Date()) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite { return max(0, seconds) }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }
}
