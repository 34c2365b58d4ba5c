import Foundation

/// One request an HTTP provider wants answered.
///
/// `secrets` lists the credential values the request carries (an API key in the query, a token in a
/// header). The client scrubs them from every message and log line, and refuses to send a request that
/// carries one over plain `http://` to a host that is not loopback.
public struct HTTPRequest: Sendable, Hashable {
    /// The HTTP method.
    public enum Method: String, Sendable, Hashable {
        /// `GET`.
        case get = "GET"
        /// `HEAD`.
        case head = "HEAD"
        /// `POST`.
        case post = "POST"
        /// `PUT`.
        case put = "PUT"
        /// `PATCH`.
        case patch = "PATCH"
        /// `DELETE`.
        case delete = "DELETE"

        /// Only these are retried: repeating them cannot change anything on the server.
        public var isIdempotent: Bool { self == .get || self == .head }
    }

    /// The method; only idempotent ones are retried.
    public var method: Method
    /// The whole URL, query included (`HTTPRequest.url(_:path:query:)` builds one).
    public var url: URL
    /// Header fields to send besides the client's own (`User-Agent` unless given here).
    public var headers: HTTPHeaders
    /// The body to send, if any.
    public var body: Data?
    /// The credential values the request carries; never empty strings.
    public var secrets: [String]

    /// A request; empty strings in `secrets` are dropped.
    public init(
        _ method: Method = .get, url: URL, headers: HTTPHeaders = [:], body: Data? = nil, secrets: [String] = []
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.secrets = secrets.filter { !$0.isEmpty }
    }

    /// Whether the request carries a credential: a declared secret, an `Authorization` header or a query
    /// item whose name marks a secret (`appid`, `api_key`, `token`, …).
    public var carriesCredential: Bool {
        !secrets.isEmpty || headers.contains("Authorization") || Redactor.hasSecretQueryItem(url)
    }

    /// The URL as it may be shown: secret query values replaced by `***`.
    public var redactedURL: String { Redactor.redact(url, secrets: secrets) }

    /// The request with `path` (and optional query items) appended to `baseURL`, keeping the base's own path
    /// (`https://HOST/api/v3` + `/repos/…`).
    public static func get(
        _ baseURL: URL, path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:], secrets: [String] = []
    ) -> HTTPRequest {
        HTTPRequest(.get, url: url(baseURL, path: path, query: query), headers: headers, secrets: secrets)
    }

    /// `baseURL` + `path` + query, with the query percent-encoded strictly (`+` and `&` in a value stay data).
    /// The base URL's path and query are kept as written, encoded characters included (`group%2Fproject` stays
    /// one segment; `?key=…` stays in front of the new items); `path` is text, encoded here.
    public static func url(_ baseURL: URL, path: String, query: [URLQueryItem] = []) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        let basePath = components.percentEncodedPath
        let trimmedBase = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        let relative = path.hasPrefix("/") ? path : "/" + path
        let encoded = relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative
        components.percentEncodedPath = trimmedBase + encoded
        if !query.isEmpty {
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&=+;#?/")
            let added = query.map { item in
                let name = item.name.addingPercentEncoding(withAllowedCharacters: allowed) ?? item.name
                guard let value = item.value else { return name }
                return "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
            }.joined(separator: "&")
            let existing = components.percentEncodedQuery ?? ""
            components.percentEncodedQuery = existing.isEmpty ? added : existing + "&" + added
        }
        return components.url ?? baseURL
    }
}
