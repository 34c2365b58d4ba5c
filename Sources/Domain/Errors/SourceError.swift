import Foundation

/// Why a source (or one request of it) failed: a closed taxonomy with a human message.
///
/// Providers map their own failures (HTTP statuses, decoding errors, file errors) to this at the edge;
/// nothing above the Data layer sees a `URLError`, a `DecodingError` or a bare status code.
/// Messages never contain secrets: providers redact before they build one.
public struct SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure: what a report's status and a continuous run's backoff depend on.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// The source's own settings are wrong or incomplete (missing key, bad option value).
        case configuration
        /// The credentials were refused (401, 403 without rate limiting).
        case unauthorized
        /// The thing asked for does not exist (404, unknown city, missing file).
        case notFound
        /// The service asked us to slow down (429, 403 with an exhausted quota).
        case rateLimited
        /// The source did not answer within its time.
        case timeout
        /// The transport failed: connection refused, DNS, TLS, reset, 5xx.
        case network
        /// The service answered with something we cannot use (undecodable, wrong type, too large).
        case badResponse
        /// A local file or process could not be read or written.
        case io
        /// Local data could not be parsed (a bad CSV row, an invalid JSON line, a broken feed).
        case parse
    }

    /// The kind of failure.
    public var kind: Kind
    /// One short sentence for people, without secrets.
    public var message: String
    /// When the service said to ask again (`Retry-After`, a rate limit's reset), if it did: a continuous run
    /// waits at least until then. A hint, not part of the error's identity (equality ignores it).
    public var retryAt: Date?

    /// An error of `kind` with `message`; `retryAt` when the service said when to ask again.
    public init(_ kind: Kind, _ message: String, retryAt: Date? = nil) {
        self.kind = kind
        self.message = message
        self.retryAt = retryAt
    }

    /// `kind: message`.
    public var description: String { "\(kind.rawValue): \(message)" }

    /// The same error with context in front of its message ("Busan: city not found").
    public func prefixed(_ context: String) -> SourceError {
        SourceError(kind, "\(context): \(message)", retryAt: retryAt)
    }

    /// The same error with another message (scrubbed, extended), keeping its hints.
    public func withMessage(_ message: String) -> SourceError {
        SourceError(kind, message, retryAt: retryAt)
    }

    /// Equal when kind and message are; `retryAt` is a hint and ignored.
    public static func == (lhs: SourceError, rhs: SourceError) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message
    }

    /// Hashes kind and message, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(message)
    }
}
