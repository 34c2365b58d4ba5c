import CCurl
import Domain
import Foundation
import HTTPClient
import Synchronization

/// The HTTP client of one source, on libcurl: every attempt is a transfer in the process's one multi handle
/// (`CurlLoop`), so sources share connections but not settings. What is the source's own goes with each
/// transfer: the timeout, the size cap, the User-Agent, the trusted CAs (`caFile` beside the run's
/// `SSL_CERT_FILE` / `CURL_CA_BUNDLE` / `SSL_CERT_DIR`), the proxy `NetworkEnvironment` decides, and
/// `insecureSkipVerify` for loopback hosts; retries and the source's `concurrency` are the exchange's (`Exchange`).
///
/// Redirects are followed here rather than by libcurl, with one rule: a request that carries a credential follows
/// a redirect only to the same scheme and host (otherwise the 3xx goes to the caller, which reports it instead of
/// leaking the credential). A stopped attempt (timed out, cancelled) is removed from the multi handle at once.
public final class CurlHTTPClient: HTTPFetching {
    private let configuration: HTTPClientConfiguration
    private let network: NetworkEnvironment
    /// The CAs this source trusts, read (the `caFile`) by its first request rather than when the source is made.
    private let trust = Mutex<Result<CurlTrust, SourceError>?>(nil)
    /// This source's `concurrency`, held by each attempt beside the process-wide limit.
    let sourceSlots: RequestSlots

    static let maxRedirects = 10

    /// - Parameter network: the run's proxy and CA variables; by default none (no proxy, libcurl's own CAs).
    public init(configuration: HTTPClientConfiguration, network: NetworkEnvironment = NetworkEnvironment([:])) {
        self.configuration = configuration
        self.network = network
        self.sourceSlots = RequestSlots(limit: configuration.maxConnectionsPerHost, boundingAnswers: false)
    }

    public func fetch(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        exchange(request, configuration: configuration, cancellation: cancellation, completion: completion)
    }

    /// Whether this request skips the certificate check: `insecureSkipVerify` and a loopback host.
    func skipsVerification(_ url: URL) -> Bool {
        configuration.insecureSkipVerify && url.scheme?.lowercased() == "https" && Redactor.isLoopback(host: url.host)
    }

    private func sourceTrust() -> Result<CurlTrust, SourceError> {
        if let known = trust.withLock({ $0 }) { return known }
        let made = Self.trust(caFile: configuration.caFile, network: network)
        trust.withLock { $0 = made }
        return made
    }

    /// The run's CAs (libcurl's defaults unless `NetworkEnvironment` names others) plus the source's `caFile`.
    static func trust(caFile: URL?, network: NetworkEnvironment) -> Result<CurlTrust, SourceError> {
        var trust = CurlTrust(file: network.certificateFile, directory: network.certificateDirectory)
        if let caFile {
            guard let pem = FileManager.default.contents(atPath: caFile.path) else {
                return .failure(SourceError(.configuration, "the CA certificates (caFile \(caFile.path)) could not be loaded"))
            }
            trust.extraPEM = pem
        }
        return .success(trust)
    }
}

extension CurlHTTPClient: AttemptTransport {
    func startAttempt(
        _ request: HTTPRequest, timeout: TimeInterval, completion: @escaping @Sendable (AttemptOutcome) -> Void
    ) -> AttemptStop? {
        let trust: CurlTrust
        switch sourceTrust() {
        case .success(let known): trust = known
        case .failure(let error):
            completion(.failure(error, retryable: false))
            return nil
        }
        let attempt = CurrentTransfer()
        send(request, to: request.url, method: request.method, body: request.body, redirects: 0, timeout: timeout,
             trust: trust, attempt: attempt, completion: completion)
        return attempt.stop
    }

    func routeNote(for request: HTTPRequest) -> String? {
        var notes: [String] = []
        if let proxy = network.proxy(for: request.url, setting: configuration.proxy) { notes.append("via proxy \(proxy)") }
        if skipsVerification(request.url) {
            notes.append("TLS certificate NOT verified (insecureSkipVerify, loopback host only)")
        }
        return notes.isEmpty ? nil : notes.joined(separator: ", ")
    }

    private func send(
        _ request: HTTPRequest, to url: URL, method: HTTPRequest.Method, body: Data?, redirects: Int,
        timeout: TimeInterval, trust: CurlTrust, attempt: CurrentTransfer,
        completion: @escaping @Sendable (AttemptOutcome) -> Void
    ) {
        let proxy = network.proxy(for: url, setting: configuration.proxy)
        // The exchange's timer bounds the attempt; libcurl's own timeout is a backstop just after it.
        let curlRequest = CurlRequest(
            url: url, method: method, headers: request.headers, body: body,
            timeoutMilliseconds: Int((timeout * 1000).rounded(.up)) + 1000, maxResponseBytes: configuration.maxResponseBytes,
            userAgent: configuration.userAgent, proxy: proxy, trust: trust, skipsVerification: skipsVerification(url))
        let transfer = CurlTransfer(curlRequest) { [self] outcome in
            attempt.ended()
            switch outcome {
            case .failure(let failure):
                if failure.tooLarge { return completion(.tooLarge) }
                let (error, retryable) = failure.sourceError(url: url, proxy: proxy, caFile: configuration.caFile)
                completion(.failure(error, retryable: retryable))
            case .response(let status, let headers, let responseBody, let redirectURL):
                if let next = redirectTarget(status: status, location: redirectURL, from: url, carriesCredential: request.carriesCredential),
                   redirects < Self.maxRedirects {
                    let keepsMethod = status == 307 || status == 308 || (method != .post && status != 303)
                    send(request, to: next, method: keepsMethod ? method : .get, body: keepsMethod ? body : nil,
                         redirects: redirects + 1, timeout: timeout, trust: trust, attempt: attempt, completion: completion)
                    return
                }
                completion(.response(HTTPResponse(status: status, headers: headers, body: responseBody, url: url)))
            }
        }
        if attempt.track(transfer) { CurlLoop.shared.start(transfer) }
    }

    /// Where a 3xx leads, when it is followed: libcurl's reading of its `Location`, and for a request with a
    /// credential the same scheme and host.
    private func redirectTarget(status: Int, location: String?, from url: URL, carriesCredential: Bool) -> URL? {
        guard [301, 302, 303, 307, 308].contains(status), let location, let target = URL(string: location),
              ["http", "https"].contains(target.scheme?.lowercased() ?? "") else { return nil }
        let sameOrigin = target.host?.lowercased() == url.host?.lowercased() && target.scheme?.lowercased() == url.scheme?.lowercased()
        return !carriesCredential || sameOrigin ? target : nil
    }
}

/// The transfer of one attempt (the latest, after redirects), so the exchange can stop it.
final class CurrentTransfer: Sendable {
    private let state = Mutex<(transfer: CurlTransfer?, stopped: Bool)>((nil, false))

    /// Records the attempt's current transfer; false when the attempt was stopped already (a redirect in flight),
    /// and the transfer must not start.
    func track(_ transfer: CurlTransfer) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.transfer = transfer
            return true
        }
    }

    /// The current transfer ended (its outcome is being handled): nothing is left to stop. Lets go of it, as `stop`
    /// does: its completion holds this attempt (to follow a redirect), and the two kept each other, with the
    /// client and the exchange, for as long as the process lived.
    func ended() {
        state.withLock { $0.transfer = nil }
    }

    /// Removes the current transfer from the multi handle, then calls `removed`.
    @Sendable func stop(then removed: @escaping @Sendable () -> Void) {
        let transfer = state.withLock { state -> CurlTransfer? in
            state.stopped = true
            defer { state.transfer = nil }
            return state.transfer
        }
        guard let transfer else { return removed() }
        CurlLoop.shared.stop(transfer, removed: removed)
    }
}
