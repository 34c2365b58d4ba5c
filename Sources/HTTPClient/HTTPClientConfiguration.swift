import Foundation
import Logging
import ProviderKit

/// How one source's HTTP client behaves. Built per source (see `HTTPSourceOptions`), so each source has its
/// own connection pool sized to its `concurrency`.
public struct HTTPClientConfiguration: Sendable {
    /// Sent as `User-Agent` unless a request sets its own.
    public static let toolVersion = ToolVersion.current
    public static let defaultUserAgent = "aggregate/\(toolVersion)"
    public static let defaultMaxResponseBytes = 16 << 20

    /// Parallel connections to one host. URLSession on Linux defaults to 6, which would silently cap a
    /// source's `concurrency`; this is set from it.
    public var maxConnectionsPerHost: Int
    /// The longest one attempt may take; each attempt is also cut to the time the source has left.
    public var requestTimeout: TimeInterval
    /// Bodies past this many bytes are refused (`badResponse`) without being read to the end.
    public var maxResponseBytes: Int
    public var retry: RetryPolicy
    /// The longest `Retry-After` honoured when the source has no deadline.
    public var maxRetryWait: TimeInterval
    public var userAgent: String
    /// `--verbose`: one `.info` line per request (method, redacted URL, status, bytes, ms, retries); the CLI
    /// shows `.info` only with `--verbose`. Silent by default.
    public var logger: Logger
    /// Names the source in log lines.
    public var sourceID: String?

    public init(
        maxConnectionsPerHost: Int = 6, requestTimeout: TimeInterval = 30,
        maxResponseBytes: Int = HTTPClientConfiguration.defaultMaxResponseBytes, retry: RetryPolicy = RetryPolicy(),
        maxRetryWait: TimeInterval = 60, userAgent: String = HTTPClientConfiguration.defaultUserAgent,
        logger: Logger = Logger(label: "aggregate.http", factory: { _ in SwiftLogNoOpLogHandler() }), sourceID: String? = nil
    ) {
        self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        self.requestTimeout = requestTimeout > 0 ? requestTimeout : 30
        self.maxResponseBytes = max(1, maxResponseBytes)
        self.retry = retry
        self.maxRetryWait = maxRetryWait
        self.userAgent = userAgent
        self.logger = logger
        self.sourceID = sourceID
    }
}
