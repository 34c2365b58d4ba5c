import Foundation

/// How requests prove who we are. Exactly one per source; its value is a secret.
public enum TMDBCredential: Sendable, Hashable {
    /// A v3 API key, sent as the `api_key` query item (redacted in every log line and message).
    case apiKey(String)
    /// A v4 read access token, sent as `Authorization: Bearer …`.
    case accessToken(String)

    /// The value to send, and to scrub from anything shown.
    public var secret: String {
        switch self {
        case .apiKey(let key): key
        case .accessToken(let token): token
        }
    }
}

extension TMDBCredential: CustomStringConvertible, CustomDebugStringConvertible {
    /// Which kind, never the value: a credential interpolated into a message by mistake stays secret.
    public var description: String {
        switch self {
        case .apiKey: "apiKey(***)"
        case .accessToken: "accessToken(***)"
        }
    }

    public var debugDescription: String { description }
}
