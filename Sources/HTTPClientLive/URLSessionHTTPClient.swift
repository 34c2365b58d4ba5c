import Domain
import Foundation
import HTTPClient
import Logging
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP client over URLSession (libcurl on Linux), one per source.
///
/// Completion-handler based, like the Domain's fan-out: nothing here blocks a thread or uses Swift
/// concurrency. Each attempt is bounded by `requestTimeout` and by the time the source has left (the
/// cancellation token's deadline); cancelling the token completes the request at once and stops any
/// pending retry. Completions are delivered on a global queue, never on the session's delegate queue.
///
/// Abandoned transfers (timed out, cancelled) are not cancelled in URLSession, which can crash on Linux
/// (see `SessionDelegate`); they end at their URLRequest timeout, set just past the attempt's own.
///
/// On Linux it trusts libcurl's built-in CA bundle only and goes through whatever proxy libcurl finds in the
/// environment: swift-corelibs-foundation sets neither `CURLOPT_CAINFO` from anything we can reach nor
/// `CURLOPT_PROXY` (`connectionProxyDictionary` is ignored). `LiveHTTPClientFactory` therefore uses it only
/// for sources that need neither (docs/ARCHITECTURE.md, "TLS and proxies").
public final class URLSessionHTTPClient: HTTPFetching {
    private let session: URLSession
    private let delegate: SessionDelegate
    private let configuration: HTTPClientConfiguration

    /// - Parameter sessionConfiguration: a base to start from; the client sets the connection limit, timeouts
    ///   and disables cookies and URLSession's own cache on a copy of it.
    public init(
        configuration: HTTPClientConfiguration,
        sessionConfiguration: URLSessionConfiguration = .ephemeral
    ) {
        let sessionConfiguration = sessionConfiguration.copy() as? URLSessionConfiguration ?? .ephemeral
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maxConnectionsPerHost
        sessionConfiguration.timeoutIntervalForRequest = configuration.requestTimeout.rounded(.up) + 1
        sessionConfiguration.timeoutIntervalForResource = max(configuration.requestTimeout, 7 * 24 * 3600)
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        self.configuration = configuration
        self.delegate = SessionDelegate()
        self.session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // The session keeps its delegate alive until invalidated.
        session.finishTasksAndInvalidate()
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
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout.rounded(.up) + 1)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        if !request.headers.contains("User-Agent") {
            urlRequest.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        }
        let task = session.dataTask(with: urlRequest)
        delegate.register(task, SessionDelegate.Registration(
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
