import Foundation
import Synchronization

/// The run-wide network settings read from the environment once per run: the proxy variables
/// (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`, each in upper or lower case, lower case first as
/// curl reads them) and the CA variables (`CURL_CA_BUNDLE`, `SSL_CERT_FILE`, `SSL_CERT_DIR`).
///
/// Which proxy a request uses is decided here, and only here, so the verbose lines, the error messages and
/// what the transport does always agree (see docs/ARCHITECTURE.md, "HTTP transport").
public struct NetworkEnvironment: Sendable, Hashable {
    /// The proxy for `https://` URLs (`HTTPS_PROXY`, else `ALL_PROXY`).
    public var httpsProxy: ProxyEndpoint?
    /// The proxy for `http://` URLs (`HTTP_PROXY`, else `ALL_PROXY`).
    public var httpProxy: ProxyEndpoint?
    /// Patterns from `NO_PROXY`: host names (a leading `.` or `*.` is allowed; subdomains match too), IP
    /// addresses, each optionally with `:port`, or `*` for every host.
    public var noProxy: [String]
    /// `CURL_CA_BUNDLE`, else `SSL_CERT_FILE`: a PEM bundle trusted instead of the system's.
    public var certificateFile: String?
    /// `SSL_CERT_DIR`: a directory of hashed PEM certificates (`openssl rehash`) trusted instead of the system's.
    public var certificateDirectory: String?
    /// Proxy variables that are set but could not be read, with why (for a warning; never their value).
    public var problems: [String]

    /// The CA bundle and directory libcurl uses on Debian and Ubuntu; a
    /// `SSL_CERT_FILE` / `SSL_CERT_DIR` naming these changes nothing.
    public static let systemCertificateFile = "/etc/ssl/certs/ca-certificates.crt"
    /// See `systemCertificateFile`.
    public static let systemCertificateDirectory = "/etc/ssl/certs"

    /// Settings as given (tests); `init(_:)` reads them from an environment.
    public init(
        httpsProxy: ProxyEndpoint? = nil, httpProxy: ProxyEndpoint? = nil, noProxy: [String] = [],
        certificateFile: String? = nil, certificateDirectory: String? = nil, problems: [String] = []
    ) {
        self.httpsProxy = httpsProxy
        self.httpProxy = httpProxy
        self.noProxy = noProxy
        self.certificateFile = certificateFile
        self.certificateDirectory = certificateDirectory
        self.problems = problems
    }

    /// Reads the variables from `environment` (the process's, or a test's).
    public init(_ environment: [String: String]) {
        func variable(_ name: String) -> (name: String, value: String)? {
            for candidate in [name.lowercased(), name.uppercased()] {
                if let value = environment[candidate]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                    return (candidate, value)
                }
            }
            return nil
        }
        var problems: [String] = []
        func proxy(_ name: String) -> ProxyEndpoint? {
            guard let (found, value) = variable(name) else { return nil }
            switch ProxyEndpoint.parse(value) {
            case .success(let endpoint): return endpoint
            case .failure(let problem):
                problems.append("\(found) \(problem); requests go without a proxy")
                return nil
            }
        }
        let all = proxy("all_proxy")
        self.init(
            httpsProxy: proxy("https_proxy") ?? all, httpProxy: proxy("http_proxy") ?? all,
            noProxy: (variable("no_proxy")?.value ?? "")
                .split(whereSeparator: { $0 == "," || $0 == " " }).map { $0.lowercased() },
            // As the curl tool reads them: CURL_CA_BUNDLE first, then SSL_CERT_FILE.
            certificateFile: (environment["CURL_CA_BUNDLE"].flatMap { $0.isEmpty ? nil : $0 })
                ?? environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 },
            certificateDirectory: environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 },
            problems: problems)
    }

    /// Whether any proxy variable is set (the transport never lets libcurl read them itself: the proxy is always
    /// the one decided here).
    public var hasProxy: Bool { httpsProxy != nil || httpProxy != nil || !problems.isEmpty }

    /// Whether `SSL_CERT_FILE` or `SSL_CERT_DIR` asks for other CAs than the system's (libcurl's defaults).
    /// Resolving the paths' symlinks is ~18 `stat` calls and every source's client asks, so each pair of paths is
    /// resolved once per process (a manifest of 1,000 feeds made 19,391 of them when `SSL_CERT_FILE` was set),
    /// and only when asked: a run that makes no HTTP client never resolves them.
    public var overridesTrust: Bool {
        guard certificateFile != nil || certificateDirectory != nil else { return false }
        let paths = [certificateFile, certificateDirectory]
        if let decided = Self.trustDecisions.withLock({ $0[paths] }) { return decided }
        let decided = Self.overridesTrust(certificateFile, certificateDirectory)
        Self.trustDecisions.withLock { $0[paths] = decided }
        return decided
    }

    /// `overridesTrust` by the pair of paths it was decided for.
    private static let trustDecisions = Mutex<[[String?]: Bool]>([:])

    private static func overridesTrust(_ certificateFile: String?, _ certificateDirectory: String?) -> Bool {
        func differs(_ path: String?, from system: String) -> Bool {
            guard let path else { return false }
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                != URL(fileURLWithPath: system).resolvingSymlinksInPath().path
        }
        return differs(certificateFile, from: systemCertificateFile)
            || differs(certificateDirectory, from: systemCertificateDirectory)
    }

    /// The proxy a request to `url` goes through: the source's `proxy` option when it has one, else the
    /// environment's for the URL's scheme, unless `NO_PROXY` names the host.
    public func proxy(for url: URL, setting: ProxySetting = .environment) -> ProxyEndpoint? {
        switch setting {
        case .direct: return nil
        case .server(let endpoint): return endpoint
        case .environment:
            let endpoint = url.scheme?.lowercased() == "https" ? httpsProxy : httpProxy
            guard let endpoint, let host = url.host, !bypassesProxy(host: host, port: url.port) else { return nil }
            return endpoint
        }
    }

    /// Whether `NO_PROXY` names `host` (and `port`, when the pattern has one).
    public func bypassesProxy(host: String, port: Int?) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return noProxy.contains { raw in
            if raw == "*" { return true }
            var pattern = raw
            if pattern.hasPrefix("["), let close = pattern.firstIndex(of: "]") {
                // [::1]:8080
                let rest = pattern[pattern.index(after: close)...]
                if rest.hasPrefix(":"), let wanted = Int(rest.dropFirst()), wanted != port { return false }
                pattern = String(pattern[pattern.index(after: pattern.startIndex)..<close])
            } else if pattern.filter({ $0 == ":" }).count == 1, let colon = pattern.lastIndex(of: ":") {
                if let wanted = Int(pattern[pattern.index(after: colon)...]), wanted != port { return false }
                pattern = String(pattern[..<colon])
            }
            if pattern.hasPrefix("*.") { pattern.removeFirst(2) } else if pattern.hasPrefix(".") { pattern.removeFirst() }
            guard !pattern.isEmpty else { return false }
            return host == pattern || host.hasSuffix("." + pattern)
        }
    }
}

/// A source's `proxy` option.
public enum ProxySetting: Sendable, Hashable {
    /// No option: the environment's proxy variables decide.
    case environment
    /// `"proxy": "direct"`: never a proxy, whatever the environment says.
    case direct
    /// `"proxy": "http://…"`: this proxy for every request of the source.
    case server(ProxyEndpoint)
}
