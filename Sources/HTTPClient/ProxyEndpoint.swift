import Foundation

/// An HTTP proxy: where it listens and, when its URL carried them, the credentials for
/// `Proxy-Authorization`. `description` is what may be shown: scheme, host and port, never the credentials.
public struct ProxyEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's host name or address.
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The user of `Proxy-Authorization`, when the proxy URL named one.
    public var username: String?
    /// The password of `Proxy-Authorization`: a secret, scrubbed from every message.
    public var password: String?

    /// A proxy at `host:port`, with credentials when it asks for them.
    public init(host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// `http://host:port`: how a proxy is named in messages and log lines (and, once it exists, `aggregate doctor`).
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)"
    }

    /// The credentials as secrets to scrub from any text (raw and percent-decoded).
    public var secrets: [String] {
        [username, password].compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// Reads a proxy URL as the environment variables and the `proxy` option write it:
    /// `http://[user:password@]host[:port]`, or `host:port` without a scheme (http assumed; port 1080 when
    /// missing, as curl does). The problem never repeats the text, which may hold a password.
    public static func parse(_ text: String) -> Result<ProxyEndpoint, ProxyProblem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .failure(.empty) }
        let withScheme = trimmed.contains("://") ? trimmed : "http://\(trimmed)"
        guard let components = URLComponents(string: withScheme), let scheme = components.scheme?.lowercased() else {
            return .failure(.unreadable)
        }
        guard scheme == "http" else { return .failure(.unsupportedScheme(scheme)) }
        guard let host = components.host, !host.isEmpty else { return .failure(.unreadable) }
        if !(components.path.isEmpty || components.path == "/") || components.query != nil {
            return .failure(.hasPath)
        }
        let port = components.port ?? 1080
        guard (1...65_535).contains(port) else { return .failure(.unreadable) }
        let unbracketed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return .success(ProxyEndpoint(
            host: unbracketed, port: port, username: components.user?.removingPercentEncoding ?? components.user,
            password: components.password?.removingPercentEncoding ?? components.password))
    }
}

/// Why a proxy URL was refused, in words that never repeat it.
public enum ProxyProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The variable is set but empty.
    case empty
    /// It is no URL of the form `http://[user:password@]host:port`.
    case unreadable
    /// Its scheme is not `http` (the scheme is named).
    case unsupportedScheme(String)
    /// It has a path or a query.
    case hasPath

    /// What is wrong with the variable's value, to follow its name in a warning.
    public var description: String {
        switch self {
        case .empty: "is empty"
        case .unreadable: "is not a proxy URL of the form http://[user:password@]host:port"
        case .unsupportedScheme(let scheme): "uses '\(scheme)://'; only http:// proxies are supported (HTTPS goes through them with CONNECT)"
        case .hasPath: "has a path or query; give only http://[user:password@]host:port"
        }
    }
}
