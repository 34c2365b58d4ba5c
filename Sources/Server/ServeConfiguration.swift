import Foundation

/// How `aggregate serve` listens and who may ask it things.
public struct ServeConfiguration: Sendable {
    public var listen: ListenAddress
    /// The bearer token; nil: no authentication (only on a loopback address, answering loopback names only).
    public var token: ServeToken?
    /// `/events` clients connected at once (more get a 503).
    public var maxEventClients: Int
    /// Events kept for `Last-Event-ID` resumption.
    public var eventCapacity: Int
    /// Seconds between keep-alive comments on an idle event stream.
    public var keepAliveSeconds: Double
    /// A connection that sends no complete request for this long is closed: an idle keep-alive connection, and
    /// a client that trickles (or stops sending) its request's head. A response being written is never cut.
    public var idleTimeoutSeconds: Double
    /// Connections open at once; more wait in the listen backlog until one closes.
    public var maxConnections: Int
    /// On SIGTERM, how long responses in flight may take to finish (a client that stopped reading would
    /// otherwise hold the shutdown forever).
    public var shutdownGraceSeconds: Double = 10
    /// `/metrics` series per source (`--metrics-sources`).
    public var metricsSources: MetricsSources = .auto
    /// `--no-worker`: run no source; show what a fleet's workers stored in the shared store (`FleetFollower`).
    public var followsFleet = false

    public init(
        listen: ListenAddress = ListenAddress(host: "127.0.0.1", port: 8080), token: ServeToken? = nil,
        maxEventClients: Int = 64, eventCapacity: Int = 4096, keepAliveSeconds: Double = 15,
        idleTimeoutSeconds: Double = 30, maxConnections: Int = 256
    ) {
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maxConnections = maxConnections
        self.listen = listen
        self.token = token
        self.maxEventClients = maxEventClients
        self.eventCapacity = eventCapacity
        self.keepAliveSeconds = keepAliveSeconds
    }

    /// Why this configuration must not run: a non-loopback address without a token.
    public var refusal: String? {
        guard !listen.isLoopback, token == nil else { return nil }
        return "listening on \(listen) makes the server reachable from other machines: configure a token "
            + "(--token-file PATH or AGGREGATE_SERVE_TOKEN) or listen on 127.0.0.1"
    }
}

/// Whether `/metrics` has series per source (`--metrics-sources`): each source adds about 25 series, so a large
/// fleet gets fleet-wide series instead.
public enum MetricsSources: String, Sendable, CaseIterable {
    /// Per source up to `autoBound` sources watched, fleet-wide beyond.
    case auto
    case on
    case off

    /// Sources watched up to which `auto` keeps series per source.
    public static let autoBound = 100

    func perSource(watching count: Int) -> Bool {
        switch self {
        case .on: true
        case .off: false
        case .auto: count <= Self.autoBound
        }
    }
}

/// `--listen HOST:PORT` (`127.0.0.1:8080`, `[::1]:8080`, `0.0.0.0:80`, `localhost:0`).
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public init?(_ text: String) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let number = Int(port), (0...65535).contains(number) else { return nil }
        self.host = String(host)
        self.port = number
    }

    /// Only this machine can connect: 127.0.0.0/8, ::1 or `localhost`.
    public var isLoopback: Bool {
        let lower = host.lowercased()
        if lower == "localhost" || lower == "::1" { return true }
        let octets = lower.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// The shared secret of a server that others can reach. Never printed: its description is redacted.
public struct ServeToken: Sendable, CustomStringConvertible {
    let value: String

    /// Nil for an empty (or whitespace-only) token.
    public init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        self.value = trimmed
    }

    public var description: String { "(token)" }
}
