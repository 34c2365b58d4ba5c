import AsyncHTTPClient
import Foundation
import HTTPClient
import NIOSSL
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The process's connections: one URLSession, and one AsyncHTTPClient per trust and proxy route, for each
/// distinct connection limit, shared by every source of every run (a watch's and a server's too).
///
/// Before, every source had its own URLSession (its own libcurl multi handle: an epoll fd, an eventfd and a
/// socket) and kept its connection open until the run ended: 1,000 feed sources held 1,000 connections, 3,000
/// fds and ~300 MiB (BENCHMARKS.md, goal 5). Now a connection is reused by whichever source asks next, so the
/// open connections follow the requests in flight (`defaults.maxConcurrentRequests`), not the sources.
///
/// What stays per source goes with each request, never with the session: the timeout (the `URLRequest`'s
/// `timeoutInterval`, which swift-corelibs-foundation prefers to the session's), the size cap, the redirect
/// rule and the credential flag (`SessionDelegate` keeps them per task), the User-Agent, retries and the
/// source's `concurrency` (`Exchange`, one `RequestSlots` per source client). What cannot go with a request
/// keys the entry: the connection limit; for AsyncHTTPClient also the trusted CAs, the proxy and the connect
/// timeout. So sources with different TLS or proxy settings never share a connection.
///
/// The pool lives as long as the process and is never shut down: its entries are bounded by the distinct
/// settings a manifest has (one or two in practice), idle connections are closed by libcurl (after 118 s,
/// `CURLOPT_MAXAGE_CONN`) and AsyncHTTPClient (after 60 s), and a watch or a server reuses its connections
/// from one run to the next instead of opening and tearing down a pool per run (docs/ARCHITECTURE.md).
final class TransportPool: Sendable {
    static let shared = TransportPool()

    /// What a shared URLSession is chosen by.
    struct SessionKey: Hashable {
        var maxConnectionsPerHost: Int
    }

    /// What a shared AsyncHTTPClient is chosen by: everything of its configuration a request cannot carry.
    struct ClientKey: Hashable {
        var maxConnectionsPerHost: Int
        var caFile: URL?
        var certificateFile: String?
        var certificateDirectory: String?
        var proxy: ProxyEndpoint?
        var connectTimeoutMilliseconds: Int64
    }

    struct Session: Sendable {
        let session: URLSession
        let delegate: SessionDelegate
    }

    private let sessions = Mutex<[SessionKey: Session]>([:])
    private let clients = Mutex<[ClientKey: AsyncHTTPClient.HTTPClient]>([:])

    /// The shared URLSession for `key`, made on first use.
    func session(_ key: SessionKey) -> Session {
        if let made = sessions.withLock({ $0[key] }) { return made }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = key.maxConnectionsPerHost
        // Every request sets its own timeout; this is only the fallback of one that does not.
        configuration.timeoutIntervalForRequest = 60
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        let delegate = SessionDelegate()
        let made = Session(
            session: URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil), delegate: delegate)
        let (kept, extra) = Self.keepFirst(made, at: key, in: sessions)
        extra?.session.finishTasksAndInvalidate()
        return kept
    }

    /// The shared AsyncHTTPClient for `key`, made on first use with `tls` (which `key` identifies).
    func client(_ key: ClientKey, tls: @autoclosure () -> TLSConfiguration) -> AsyncHTTPClient.HTTPClient {
        if let made = clients.withLock({ $0[key] }) { return made }
        var settings = AsyncHTTPClient.HTTPClient.Configuration(
            tlsConfiguration: tls(), redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(key.connectTimeoutMilliseconds)),
            connectionPool: .init(idleTimeout: .seconds(60),
                                  concurrentHTTP1ConnectionsPerHostSoftLimit: key.maxConnectionsPerHost),
            proxy: key.proxy.map { endpoint in
                .server(host: endpoint.host, port: endpoint.port, authorization: endpoint.username.map { user in
                    .basic(username: user, password: endpoint.password ?? "")
                })
            },
            decompression: .enabled(limit: .none))
        settings.connectionPool.retryConnectionEstablishment = false
        let made = AsyncHTTPClient.HTTPClient(eventLoopGroup: AsyncHTTPClient.HTTPClient.defaultEventLoopGroup, configuration: settings)
        let (kept, extra) = Self.keepFirst(made, at: key, in: clients)
        extra?.shutdown { _ in }
        return kept
    }

    /// Stores `made` at `key` unless a racing first request stored one already: transports are made outside
    /// the lock (making one reads CA files), and the first stored is kept. Returns the kept one and the extra
    /// one to close, if any.
    private static func keepFirst<Key: Hashable & Sendable, Value: Sendable>(
        _ made: Value, at key: Key, in entries: borrowing Mutex<[Key: Value]>
    ) -> (kept: Value, extra: Value?) {
        entries.withLock { stored in
            if let existing = stored[key] { return (existing, made) }
            stored[key] = made
            return (made, nil)
        }
    }

    /// How many URLSessions and AsyncHTTPClients the pool holds (for tests).
    var counts: (sessions: Int, clients: Int) {
        (sessions.withLock { $0.count }, clients.withLock { $0.count })
    }
}

extension HTTPClientConfiguration {
    /// The connection limit of the shared transport this source uses: the process-wide limit on requests in
    /// flight when there is one (every source shares the connections, so one source's `concurrency` must not
    /// cap the others), else the source's own `concurrency` (a client made without the composition root).
    var sharedConnectionLimit: Int {
        requestSlots?.limit ?? maxConnectionsPerHost
    }
}
