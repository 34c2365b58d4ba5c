import AsyncHTTPClient
import Domain
import Foundation
import HTTPClient
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// The HTTP client over AsyncHTTPClient (SwiftNIO, BoringSSL) of one source, sending through the process's
/// shared AsyncHTTPClient for its trust, proxy route and connection limit (`TransportPool`), for what
/// URLSession on Linux cannot do (measured; docs/ARCHITECTURE.md, "TLS and proxies"): trusting a CA of our
/// choosing (`caFile`, `SSL_CERT_FILE`, `SSL_CERT_DIR`), a proxy of our choosing per request (`proxy`, the
/// proxy variables with `NO_PROXY` as `NetworkEnvironment` reads them), `insecureSkipVerify` for loopback hosts.
///
/// The exchange around each attempt (retries, timers, size cap, verbose line) is the one URLSession's client
/// uses. AsyncHTTPClient's own connection retries are off, so a refused connection or a bad certificate is
/// one connection attempt; its redirects are off too and followed here, with URLSession's client's rule: a
/// request that carries a credential follows a redirect only to the same scheme and host.
public final class SwiftNIOHTTPClient: HTTPFetching {
    private let configuration: HTTPClientConfiguration
    private let network: NetworkEnvironment
    private let tls: TLSConfiguration
    /// This source's `concurrency`, held by each attempt beside the process-wide limit.
    let sourceSlots: RequestSlots

    static let maxRedirects = 10

    public init(configuration: HTTPClientConfiguration, network: NetworkEnvironment) {
        self.configuration = configuration
        self.network = network
        self.tls = Self.tlsConfiguration(caFile: configuration.caFile, network: network)
        self.sourceSlots = RequestSlots(limit: configuration.maxConnectionsPerHost)
    }

    public func fetch(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        exchange(request, configuration: configuration, cancellation: cancellation, completion: completion)
    }

    /// The run's trust (the system's CAs, or `SSL_CERT_FILE` / `SSL_CERT_DIR` instead, as OpenSSL reads
    /// them) plus the source's `caFile`. TLS 1.2 or later.
    static func tlsConfiguration(caFile: URL?, network: NetworkEnvironment) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let directory = network.certificateDirectory {
            tls.trustRoots = .file(directory)
            if let file = network.certificateFile { tls.additionalTrustRoots.append(.file(file)) }
        } else if let file = network.certificateFile {
            tls.trustRoots = .file(file)
        } else {
            tls.trustRoots = .default
        }
        if let caFile { tls.additionalTrustRoots.append(.file(caFile.path)) }
        return tls
    }

    /// Whether this request skips the certificate check: `insecureSkipVerify` and a loopback host.
    func skipsVerification(_ url: URL) -> Bool {
        configuration.insecureSkipVerify && url.scheme?.lowercased() == "https" && Redactor.isLoopback(host: url.host)
    }

    /// The shared AsyncHTTPClient for `proxy` (nil: direct): its proxy, trust and connect timeout are per client.
    private func client(for proxy: ProxyEndpoint?) -> AsyncHTTPClient.HTTPClient {
        let key = TransportPool.ClientKey(
            maxConnectionsPerHost: configuration.sharedConnectionLimit, caFile: configuration.caFile,
            certificateFile: network.certificateFile, certificateDirectory: network.certificateDirectory, proxy: proxy,
            connectTimeoutMilliseconds: Int64(configuration.requestTimeout * 1000))
        return TransportPool.shared.client(key, tls: tls)
    }

    /// Which shared AsyncHTTPClient a request to `proxy` goes through (for tests).
    func sharedClientID(for proxy: ProxyEndpoint?) -> ObjectIdentifier {
        ObjectIdentifier(client(for: proxy))
    }
}

extension SwiftNIOHTTPClient: AttemptTransport {
    func startAttempt(
        _ request: HTTPRequest, timeout: TimeInterval, completion: @escaping @Sendable (AttemptOutcome) -> Void
    ) -> AttemptStop? {
        let attempt = RunningAttempt()
        send(request, to: request.url, method: request.method, body: request.body, redirects: 0, timeout: timeout,
             attempt: attempt, completion: completion)
        return attempt.stop
    }

    func routeNote(for request: HTTPRequest) -> String? {
        var note = "AsyncHTTPClient"
        if let proxy = network.proxy(for: request.url, setting: configuration.proxy) { note += " via proxy \(proxy)" }
        if skipsVerification(request.url) {
            note += ", TLS certificate NOT verified (insecureSkipVerify, loopback host only)"
        }
        return note
    }

    private func send(
        _ request: HTTPRequest, to url: URL, method: HTTPRequest.Method, body: Data?, redirects: Int,
        timeout: TimeInterval, attempt: RunningAttempt, completion: @escaping @Sendable (AttemptOutcome) -> Void
    ) {
        let proxy = network.proxy(for: url, setting: configuration.proxy)
        var headers = NIOHTTP1.HTTPHeaders()
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        if !request.headers.contains("User-Agent") { headers.add(name: "User-Agent", value: configuration.userAgent) }
        // URLSession (libcurl) asks for compressed bodies and decodes them; so does this client.
        if !request.headers.contains("Accept-Encoding") { headers.add(name: "Accept-Encoding", value: "gzip, deflate") }
        let outgoing: AsyncHTTPClient.HTTPClient.Request
        do {
            var insecure = tls
            insecure.certificateVerification = .none
            outgoing = try AsyncHTTPClient.HTTPClient.Request(
                url: url, method: NIOHTTP1.HTTPMethod(rawValue: method.rawValue), headers: headers,
                body: body.map { .bytes($0) }, tlsConfiguration: skipsVerification(url) ? insecure : nil)
        } catch {
            completion(.failure(SourceError(.configuration, "unsupported URL (scheme \(url.scheme ?? "none"))"), retryable: false))
            return
        }
        let cap = min(configuration.maxResponseBytes, Int(UInt32.max))
        let accumulator = ResponseAccumulator(request: outgoing, maxBodySize: cap)
        let deadline = NIODeadline.now() + .milliseconds(Int64((timeout.rounded(.up) + 1) * 1000))
        let task = client(for: proxy).execute(request: outgoing, delegate: accumulator, deadline: deadline)
        attempt.track(task)
        // The outcome leaves the event loop at once: the exchange logs, schedules and completes on a global
        // queue, so nothing but SwiftNIO's own handlers ever runs on its threads (docs/ARCHITECTURE.md).
        task.futureResult.whenComplete { result in
            DispatchQueue.global().async { [self] in
                switch result {
                case .failure(let error):
                    if error is ResponseAccumulator.ResponseTooBigError { return completion(.tooLarge) }
                    let (mapped, retryable) = NIOTransportError.map(error, url: url, proxy: proxy, caFile: configuration.caFile)
                    completion(.failure(mapped, retryable: retryable))
                case .success(let response):
                    if let next = redirectTarget(response, from: url, carriesCredential: request.carriesCredential),
                       redirects < Self.maxRedirects {
                        let keepsMethod = response.status.code == 307 || response.status.code == 308
                            || (method != .post && response.status.code != 303)
                        send(request, to: next, method: keepsMethod ? method : .get, body: keepsMethod ? body : nil,
                             redirects: redirects + 1, timeout: timeout, attempt: attempt, completion: completion)
                        return
                    }
                    var fields = ResponseHeaders()
                    for (name, value) in response.headers { fields.add(name, value) }
                    let bytes = response.body.map { Data($0.readableBytesView) } ?? Data()
                    completion(.response(HTTPResponse(status: Int(response.status.code), headers: fields, body: bytes, url: url)))
                }
            }
        }
    }

    /// Where a 3xx leads, when it is followed: a `Location`, and for a request with a credential the same
    /// scheme and host (otherwise the 3xx goes to the caller, which reports it instead of leaking the credential).
    private func redirectTarget(_ response: AsyncHTTPClient.HTTPClient.Response, from url: URL, carriesCredential: Bool) -> URL? {
        guard [301, 302, 303, 307, 308].contains(response.status.code),
              let location = response.headers.first(name: "Location"),
              let target = URL(string: location, relativeTo: url)?.absoluteURL,
              ["http", "https"].contains(target.scheme?.lowercased() ?? "") else { return nil }
        let sameOrigin = target.host?.lowercased() == url.host?.lowercased() && target.scheme?.lowercased() == url.scheme?.lowercased()
        return !carriesCredential || sameOrigin ? target : nil
    }
}

/// The AsyncHTTPClient task of one attempt (the latest, after redirects), so the exchange can stop it: a stopped
/// task closes its connection at once instead of holding it until its deadline.
final class RunningAttempt: Sendable {
    private typealias Task = AsyncHTTPClient.HTTPClient.Task<AsyncHTTPClient.HTTPClient.Response>
    private let state = Mutex<(task: Task?, stopped: Bool)>((nil, false))

    /// Records the attempt's current task; one started after `stop` (a redirect in flight) is cancelled at once.
    func track(_ task: AsyncHTTPClient.HTTPClient.Task<AsyncHTTPClient.HTTPClient.Response>) {
        let stopped = state.withLock { state -> Bool in
            state.task = task
            return state.stopped
        }
        if stopped { task.cancel() }
    }

    /// Cancels the current task (its late outcome, `cancelled`, is ignored by the exchange).
    @Sendable func stop() {
        let task = state.withLock { state -> Task? in
            state.stopped = true
            return state.task
        }
        task?.cancel()
    }
}
