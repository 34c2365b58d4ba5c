import Domain
import Foundation
import ProviderKit

/// The options every HTTP provider accepts (`baseURL`, `maxRetries`, `requestTimeoutSeconds`,
/// `maxResponseBytes`, and for TLS and proxies `caFile`, `proxy`, `insecureSkipVerify`), read and validated
/// one way so every HTTP provider agrees.
///
///     let http = HTTPSourceOptions.read(reader, defaultBaseURL: Self.defaultBaseURL,
///                                       credentialOption: "apiKey", hasCredential: apiKey != nil)
///     let client = configuration.httpClient(http.clientConfiguration(for: configuration))
public struct HTTPSourceOptions: Sendable, Hashable {
    /// `baseURL`: where the service is (a test's fixture server, a self-hosted instance).
    public var baseURL: URL
    /// `maxRetries`: repeats of a failed idempotent request, `0...maxRetriesLimit`.
    public var maxRetries: Int
    /// Per attempt; nil means the source's timeout.
    public var requestTimeoutSeconds: Double?
    /// `maxResponseBytes`: the largest body accepted.
    public var maxResponseBytes: Int
    /// `caFile`, resolved against the manifest's directory.
    public var caFile: URL?
    /// `proxy`: which proxy the requests go through; the environment's by default.
    public var proxy: ProxySetting = .environment
    /// `insecureSkipVerify`: no certificate check, for loopback hosts only.
    public var insecureSkipVerify = false

    /// Options with the given values and the defaults for TLS and proxies.
    public init(
        baseURL: URL, maxRetries: Int = RetryPolicy.defaultMaxRetries, requestTimeoutSeconds: Double? = nil,
        maxResponseBytes: Int = HTTPClientConfiguration.defaultMaxResponseBytes
    ) {
        self.baseURL = baseURL
        self.maxRetries = maxRetries
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.maxResponseBytes = maxResponseBytes
    }

    /// The largest `maxRetries` accepted.
    public static let maxRetriesLimit = 10

    /// The specs for a provider whose every URL is named in its own options (feeds, pages): no `baseURL`.
    public static let explicitURLSpecs: [OptionSpec] = specs(defaultBaseURL: unusedBaseURL).filter { $0.name != "baseURL" }

    /// Reads the options of `explicitURLSpecs`.
    public static func readForExplicitURLs(_ reader: OptionsReader, fetchedURLs: [URL]) -> HTTPSourceOptions {
        read(reader, defaultBaseURL: unusedBaseURL, fetchedURLs: fetchedURLs)
    }

    /// Where `baseURL` would point if it applied; it does not where every URL is explicit.
    private static let unusedBaseURL = URL(string: "https://localhost")!

    /// The specs to append to a provider's own `options`.
    public static func specs(defaultBaseURL: URL) -> [OptionSpec] {
        [
            OptionSpec("baseURL", "string (URL)", default: defaultBaseURL.absoluteString,
                       help: "Where the API lives (an enterprise host, a reverse proxy, a test server). https:// is required "
                           + "when a credential is sent, except to loopback hosts."),
            OptionSpec("maxRetries", "integer 0–\(maxRetriesLimit)", default: String(RetryPolicy.defaultMaxRetries),
                       identity: .tuning, help: "Repeats of a GET after a network error, 429 or 5xx (exponential backoff with jitter; "
                           + "Retry-After honoured when it fits in the source's timeout)."),
            OptionSpec("requestTimeoutSeconds", "number", default: "the source's timeout",
                       identity: .tuning, help: "The longest one request may take."),
            OptionSpec("maxResponseBytes", "integer", default: String(HTTPClientConfiguration.defaultMaxResponseBytes),
                       identity: .tuning, help: "Responses larger than this are refused (16 MiB by default)."),
            OptionSpec("caFile", "string (path)", default: "the system's CAs (or SSL_CERT_FILE / SSL_CERT_DIR)",
                       identity: .tuning, help: "A PEM bundle of CA certificates trusted for this source besides the run's "
                           + "(a private CA of a self-hosted service); relative to the manifest. Overrides defaults.caFile."),
            OptionSpec("proxy", "string (URL)", default: "HTTPS_PROXY / HTTP_PROXY / NO_PROXY",
                       identity: .tuning, help: "An http://[user:password@]host:port proxy for every request of this "
                           + "source (https:// goes through it with CONNECT), or \"direct\" for none whatever the "
                           + "environment says. Credentials are never printed."),
            OptionSpec("insecureSkipVerify", "boolean", default: "false",
                       identity: .tuning, help: "Skip the certificate check, for loopback hosts only (a local test server; another host is a "
                           + "manifest problem), and --verbose says so on every request."),
        ]
    }

    /// Reads the options, recording problems in `reader` (the caller's `finish()` throws them).
    /// - Parameters:
    ///   - reader: the source's options reader.
    ///   - defaultBaseURL: the service's own URL, used when `baseURL` is not given.
    ///   - credentialOption: the option holding the credential, named in the plain-http problem.
    ///   - hasCredential: whether this source will send one (a plain-http base URL is refused then).
    ///   - fetchedURLs: the URLs the source fetches when they are its own rather than under `baseURL` (a feed's
    ///     `urls`); `insecureSkipVerify` is refused unless every one is on a loopback host.
    public static func read(
        _ reader: OptionsReader, defaultBaseURL: URL, credentialOption: String? = nil, hasCredential: Bool = false,
        fetchedURLs: [URL] = []
    ) -> HTTPSourceOptions {
        var options = HTTPSourceOptions(baseURL: defaultBaseURL)
        if let text = reader.value("baseURL", as: String.self) {
            if let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
               url.host?.isEmpty == false, url.query == nil {
                options.baseURL = url
            } else {
                reader.problem("baseURL", "expected an http:// or https:// URL with a host and no query, found '\(text)'")
            }
        }
        if hasCredential, Redactor.credentialTransportProblem(options.baseURL) != nil {
            let what = credentialOption.map { "'\($0)'" } ?? "a credential"
            reader.problem("baseURL", "refusing to send \(what) over plain http:// to \(options.baseURL.host ?? "?"); "
                + "use https:// (plain http is allowed only for loopback hosts)")
        }
        if let retries = reader.value("maxRetries", as: Int.self) {
            if (0...maxRetriesLimit).contains(retries) {
                options.maxRetries = retries
            } else {
                reader.problem("maxRetries", "must be between 0 and \(maxRetriesLimit), found \(retries)")
            }
        }
        if let timeout = reader.value("requestTimeoutSeconds", as: Double.self) {
            if timeout > 0 { options.requestTimeoutSeconds = timeout } else {
                reader.problem("requestTimeoutSeconds", "must be greater than 0")
            }
        }
        if let cap = reader.value("maxResponseBytes", as: Int.self) {
            if cap > 0 { options.maxResponseBytes = cap } else {
                reader.problem("maxResponseBytes", "must be greater than 0")
            }
        }
        readTransport(reader, into: &options, fetchedURLs: fetchedURLs.isEmpty ? [options.baseURL] : fetchedURLs)
        return options
    }

    /// `caFile`, `proxy` and `insecureSkipVerify`. A proxy problem never repeats the value (a password).
    private static func readTransport(_ reader: OptionsReader, into options: inout HTTPSourceOptions, fetchedURLs: [URL]) {
        if let path = reader.value("caFile", as: String.self) {
            let url = reader.resolvePath(path)
            if let problem = CertificateBundle.problem(at: url) {
                reader.problem("caFile", "\(url.path) \(problem)")
            } else {
                options.caFile = url
            }
        }
        if let text = reader.value("proxy", as: String.self) {
            if text.trimmingCharacters(in: .whitespaces).lowercased() == "direct" {
                options.proxy = .direct
            } else {
                switch ProxyEndpoint.parse(text) {
                case .success(let endpoint): options.proxy = .server(endpoint)
                case .failure(let problem): reader.problem("proxy", "\(problem)")
                }
            }
        }
        if let skip = reader.value("insecureSkipVerify", as: Bool.self) {
            options.insecureSkipVerify = skip
            // Refused rather than ignored: a source that asks not to verify a real host must not look as if it got that.
            if skip, let remote = fetchedURLs.first(where: { !Redactor.isLoopback(host: $0.host) }) {
                reader.problem("insecureSkipVerify", "applies to loopback hosts only (localhost, 127.0.0.1, ::1), "
                    + "not \(remote.host ?? "?"); to trust a private CA set \"caFile\" instead")
            }
        }
    }

    /// The client configuration for one source: its concurrency as the connection limit, its logger.
    public func clientConfiguration(for source: SourceConfiguration, retry: RetryPolicy? = nil) -> HTTPClientConfiguration {
        HTTPClientConfiguration(
            maxConnectionsPerHost: source.concurrency,
            requestTimeout: requestTimeoutSeconds ?? source.timeoutSeconds,
            maxResponseBytes: maxResponseBytes,
            retry: retry ?? RetryPolicy(maxRetries: maxRetries),
            logger: source.logger,
            sourceID: source.id,
            caFile: caFile, proxy: proxy, insecureSkipVerify: insecureSkipVerify)
    }
}
