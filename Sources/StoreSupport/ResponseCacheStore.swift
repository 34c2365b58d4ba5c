import Domain
import Foundation

/// Where HTTP responses are kept between runs. The HTTP layer talks to this and never to SQLite.
///
/// Keys are made by the HTTP layer (`ResponseCacheKey`) and never contain a secret; a stored response holds
/// no request data at all (no URL, no request headers), only what the server answered.
public protocol ResponseCacheStore: Sendable {
    /// The entry for `key`, fresh or not; nil when there is none.
    func response(forKey key: String) throws(SourceError) -> StoredResponse?
    /// Inserts or replaces the entry for `key`, owned by `sourceID` (for `cache stats|clear --source`).
    func store(_ response: StoredResponse, forKey key: String, sourceID: String) throws(SourceError)
    /// A 304 confirmed the stored body: only the freshness changes.
    func refresh(key: String, storedAt: Date, expiresAt: Date) throws(SourceError)
    /// Removes the entry for `key`, if there is one (a `no-store` answer).
    func removeResponse(forKey key: String) throws(SourceError)
}

/// A server's answer as the cache keeps it.
public struct StoredResponse: Sendable, Hashable {
    /// One response header field.
    public struct Header: Sendable, Hashable, Codable {
        /// The field's name, as the server sent it.
        public var name: String
        /// The field's value.
        public var value: String

        /// A field named `name` with `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The HTTP status the server answered with.
    public var status: Int
    /// The response's headers, minus any that set or carry credentials (`Set-Cookie`).
    public var headers: [Header]
    /// The body, whole.
    public var body: Data
    /// When the body was received or last confirmed by a 304.
    public var storedAt: Date
    /// Until when it may be used without asking the server (the source's TTL, or the server's stricter
    /// `max-age`).
    public var expiresAt: Date

    /// A stored response.
    public init(status: Int, headers: [Header], body: Data, storedAt: Date, expiresAt: Date) {
        self.status = status
        self.headers = headers
        self.body = body
        self.storedAt = storedAt
        self.expiresAt = expiresAt
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Whether the response may answer at `date` without asking the server (before `expiresAt`).
    public func isFresh(at date: Date) -> Bool { date < expiresAt }
}
