import Domain
import Foundation

// MARK: - Status → SourceError

extension HTTPResponse {
    /// Nil for 2xx and 304; otherwise the Domain error a status means, with a short human message:
    ///
    /// | status | kind |
    /// |---|---|
    /// | 401, 403 | `unauthorized` |
    /// | 403 with `X-RateLimit-Remaining: 0` or `Retry-After`, 429 | `rateLimited` (message says when it resets) |
    /// | 404, 410 | `notFound` |
    /// | 400, 422 | `configuration` (the request built from the options was rejected) |
    /// | other 4xx, 3xx | `badResponse` |
    /// | 5xx | `network` |
    ///
    /// - Parameters:
    ///   - serviceMessage: the service's own explanation from the body ("city not found"), if the provider
    ///     could read one; it is appended after the status.
    ///   - secrets: values scrubbed from the message, should the service echo a key back.
    ///   - now: the time a rate limit's reset is told against.
    public func statusError(serviceMessage: String? = nil, secrets: [String] = [], now: Date = Date()) -> SourceError? {
        if isSuccess || status == 304 { return nil }
        var message = "HTTP \(status)"
        if let phrase = Self.reasonPhrase(status) { message += " \(phrase)" }
        if let serviceMessage = serviceMessage?.trimmingCharacters(in: .whitespacesAndNewlines), !serviceMessage.isEmpty {
            message += ": \(serviceMessage.count > 300 ? serviceMessage.prefix(300) + "…" : serviceMessage)"
        }
        let kind: SourceError.Kind
        switch status {
        case 429:
            kind = .rateLimited
        case 403 where isRateLimited:
            kind = .rateLimited
        case 401, 403:
            kind = .unauthorized
        case 404, 410:
            kind = .notFound
        case 400, 422:
            kind = .configuration
        case 500...599:
            kind = .network
        default:
            kind = .badResponse
        }
        if kind == .rateLimited {
            message += "; " + rateLimitResetDescription(now: now)
        }
        if retries > 0 {
            message += " (after \(retries) \(retries == 1 ? "retry" : "retries"))"
        }
        // When to ask again, if the service said: a rate limit's reset, or a Retry-After on any failure (503).
        let retryAt = kind == .rateLimited ? rateLimitReset(now: now) : retryAfter(now: now).map { now.addingTimeInterval($0) }
        return SourceError(kind, Redactor.scrub(message, secrets: secrets), retryAt: retryAt)
    }

    /// `self` when the status is a success (2xx, 304), else the mapped error.
    public func validated(serviceMessage: String? = nil, secrets: [String] = []) -> Result<HTTPResponse, SourceError> {
        if let error = statusError(serviceMessage: serviceMessage, secrets: secrets) { return .failure(error) }
        return .success(self)
    }
}

// MARK: - Rate limits

extension HTTPResponse {
    /// 429, or 403 with an exhausted quota (`X-RateLimit-Remaining: 0`) or a `Retry-After` (GitHub's
    /// secondary limit).
    public var isRateLimited: Bool {
        if status == 429 { return true }
        guard status == 403 else { return false }
        return rateLimitRemaining == 0 || headers.contains("Retry-After")
    }

    /// `X-RateLimit-Remaining`, when the service sends it.
    public var rateLimitRemaining: Int? {
        headers["X-RateLimit-Remaining"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// How long the server asked us to wait (`Retry-After` in seconds or as an HTTP date), if it did.
    public func retryAfter(now: Date = Date()) -> TimeInterval? {
        headers["Retry-After"].flatMap { RetryPolicy.parseRetryAfter($0, now: now) }
    }

    /// When the limit lifts: `Retry-After`, else `X-RateLimit-Reset` (epoch seconds).
    public func rateLimitReset(now: Date = Date()) -> Date? {
        if let delay = retryAfter(now: now) { return now.addingTimeInterval(delay) }
        if let reset = headers["X-RateLimit-Reset"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) {
            return Date(timeIntervalSince1970: reset)
        }
        return nil
    }

    /// How long to wait before asking again: `Retry-After`, else, when the quota is exhausted
    /// (`X-RateLimit-Remaining: 0`), the time until `X-RateLimit-Reset`. Nil when the server did not say.
    /// Retrying an exhausted quota sooner only spends requests the service counts against us.
    public func rateLimitWait(now: Date = Date()) -> TimeInterval? {
        if let delay = retryAfter(now: now) { return delay }
        guard rateLimitRemaining == 0, let reset = rateLimitReset(now: now) else { return nil }
        return max(0, reset.timeIntervalSince(now))
    }

    /// "resets at 2026-05-01T12:00:00Z (in 42 s)" ("in 14 min 3 s", "in 1 h 5 min"), or a plain note when the
    /// server did not say.
    public func rateLimitResetDescription(now: Date = Date()) -> String {
        guard let reset = rateLimitReset(now: now) else { return "the service did not say when the limit resets" }
        let seconds = max(0, Int(reset.timeIntervalSince(now).rounded(.up)))
        return "resets at \(ISO8601DateFormatter().string(from: reset)) (in \(Self.duration(seconds)))"
    }

    /// `42 s`, `14 min 3 s`, `1 h 5 min`.
    static func duration(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(seconds) s"
        case ..<3600: seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s"
        default: (seconds % 3600) / 60 == 0 ? "\(seconds / 3600) h" : "\(seconds / 3600) h \((seconds % 3600) / 60) min"
        }
    }

    static func reasonPhrase(_ status: Int) -> String? {
        switch status {
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: nil
        }
    }
}
