import Foundation
import Logging
import ProviderKit

/// How one source's HTTP client behaves. Built per source (see `HTTPSourceOptions`); the connections behind it
/// are the process's, shared by every source (HTTPClientLive's `CurlLoop`), and what is the source's own
/// goes with each request.
public struct HTTPClientConfiguration: Sendable {
    /// Sent as `User-Agent` unless a request sets its own.
    public static let toolVersion = ToolVersion.current
    /// `aggregate/<version>`: the `User-Agent` of every request that sets none.
    public static let defaultUserAgent = "aggregate/\(toolVersion)"
    /// 16 MiB: the default `maxResponseBytes`.
    public static let defaultMaxResponseBytes = 16 << 20

    /// The source's `concurrency`: most of its requests in flight at once. The live clients hold each attempt
    /// to it; their shared connections are limited by `requestSlots` instead when there is one.
    public var maxConnectionsPerHost: Int
    /// The longest one attempt may take; each attempt is also cut to the time the source has left.
    public var requestTimeout: TimeInterval
    /// Bodies past this many bytes are refused (`badResponse`) without being read to the end.
    public var maxResponseBytes: Int
    /// When and how often a failed idempotent request is repeated.
    public var retry: RetryPolicy
    /// The longest `Retry-After` honoured when the source has no deadline.
    public var maxRetryWait: TimeInterval
    /// Sent as `User-Agent` unless a request sets its own.
    public var userAgent: String
    /// `--verbose`: one `.info` line per request (method, redacted URL, status, bytes, ms, retries); the CLI
    /// shows `.info` only with `--verbose`. Silent by default.
    public var logger: Logger
    /// Names the source in log lines.
    public var sourceID: String?
    /// A PEM bundle of CAs trusted beside the run's (`caFile`): a private CA of a self-hosted service.
    public var caFile: URL?
    /// Which proxy the source's requests go through (`proxy`); by default the environment's.
    public var proxy: ProxySetting
    /// `insecureSkipVerify`: no certificate check, for loopback hosts only (every request says so in
    /// `--verbose`); any other host is verified as usual.
    public var insecureSkipVerify: Bool
    /// The process-wide limit on requests in flight (`defaults.maxConcurrentRequests`) every attempt takes a
    /// slot of; nil: none beyond `maxConnectionsPerHost`. Set by the composition root, never by a provider.
    public var requestSlots: RequestSlots?

    /// A configuration; out-of-range values are clamped (at least one connection and one byte; a timeout of 0 or
    /// less is 30 seconds).
    public init(
        maxConnectionsPerHost: Int = 6, requestTimeout: TimeInterval = 30,
        maxResponseBytes: Int = HTTPClientConfiguration.defaultMaxResponseBytes, retry: RetryPolicy = RetryPolicy(),
        maxRetryWait: TimeInterval = 60, userAgent: String = HTTPClientConfiguration.defaultUserAgent,
        logger: Logger = Logger(label: "aggregate.http", factory: { _ in SwiftLogNoOpLogHandler() }), sourceID: String? = nil,
        caFile: URL? = nil, proxy: ProxySetting = .environment, insecureSkipVerify: Bool = false
    ) {
        self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        self.requestTimeout = requestTimeout > 0 ? requestTimeout : 30
        self.maxResponseBytes = max(1, maxResponseBytes)
        self.retry = retry
        self.maxRetryWait = maxRetryWait
        self.userAgent = userAgent
        self.logger = logger
        self.sourceID = sourceID
        self.caFile = caFile
        self.proxy = proxy
        self.insecureSkipVerify = insecureSkipVerify
    }
}
