import Domain
import Foundation
import HTTPClient
import Logging
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP client over URLSession (libcurl on Linux) of one source, sending through the process's shared
/// URLSession (`TransportPool`): what is the source's own (timeouts, size cap, redirect rule, retries, its
/// `concurrency`) goes with each request, so sources share connections but not settings.
///
/// Completion-handler based, like the Domain's fan-out: nothing here blocks a thread or uses Swift
/// concurrency. Each attempt is bounded by `requestTimeout` and by the time the source has left (the
/// cancellation token's deadline); cancelling the token completes the request at once and stops any
/// pending retry. Completions are delivered on `DispatchQueue.responseDelivery`, never on the session's delegate
/// queue.
///
/// Abandoned transfers (timed out, cancelled) are not cancelled in URLSession, which can crash on Linux
/// (see `SessionDelegate`); they end at their URLRequest timeout, set just past the attempt's own.
///
/// On Linux it trusts libcurl's built-in CA bundle only and goes through whatever proxy libcurl finds in the
/// environment: swift-corelibs-foundation sets neither `CURLOPT_CAINFO` from anything we can reach nor
/// `CURLOPT_PROXY` (`connectionProxyDictionary` is ignored). `LiveHTTPClientFactory` therefore uses it only
/// for sources that need neither (docs/ARCHITECTURE.md, "TLS and proxies").
public final class URLSessionHTTPClient: HTTPFetching {
    private let shared: TransportPool.Session
    private let configuration: HTTPClientConfiguration
    /// This source's `concurrency`, held by each attempt beside the process-wide limit.
    let sourceSlots: RequestSlots

    public init(configuration: HTTPClientConfiguration) {
        self.configuration = configuration
        self.sourceSlots = RequestSlots(limit: configuration.maxConnectionsPerHost)
        self.shared = TransportPool.shared.session(.init(maxConnectionsPerHost: configuration.sharedConnectionLimit))
    }

    public func fetch(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        exchange(request, configuration: configuration, cancellation: cancellation, completion: completion)
    }
}

extension URLSessionHTTPClient: AttemptTransport {
    func startAttempt(
        _ request: HTTPRequest, timeout: TimeInterval, completion: @escaping @Sendable (AttemptOutcome) -> Void
    ) -> AttemptStop? {
        // The exchange's timer bounds the attempt exactly; URLSession's timeout, which libcurl applies in
        // whole seconds (a sub-second value fails at once), is only a backstop a little later.
        var urlRequest = URLRequest(url: request.url)
        // Set through the property, which marks it as the request's own: the shared session's does not apply.
        urlRequest.timeoutInterval = timeout.rounded(.up) + 1
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        if !request.headers.contains("User-Agent") {
            urlRequest.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        }
        let task = shared.session.dataTask(with: urlRequest)
        shared.delegate.register(task, SessionDelegate.Registration(
            maxBytes: configuration.maxResponseBytes, carriesCredential: request.carriesCredential,
            completion: { outcome in completion(Self.attemptOutcome(outcome, for: request)) }))
        task.resume()
        // Never `task.cancel()`: it can crash on Linux (see `SessionDelegate`); the transfer ends at its timeout.
        return nil
    }

    /// URLSession is used only when no proxy is configured (see `LiveHTTPClientFactory`).
    func routeNote(for request: HTTPRequest) -> String? { nil }

    private static func attemptOutcome(_ outcome: SessionDelegate.Outcome, for request: HTTPRequest) -> AttemptOutcome {
        switch outcome {
        case .tooLarge:
            return .tooLarge
        case .failure(let error):
            let (mapped, retryable) = TransportError.map(error, url: request.url)
            return .failure(mapped, retryable: retryable)
        case .response(let urlResponse, let body):
            var headers = HTTPHeaders()
            for (name, value) in urlResponse.allHeaderFields {
                headers.add(String(describing: name), String(describing: value))
            }
            return .response(HTTPResponse(
                status: urlResponse.statusCode, headers: headers, body: body, url: urlResponse.url ?? request.url))
        }
    }
}
