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
public final class URLSessionHTTPClient: HTTPFetching {
    private let session: URLSession
    private let delegate: SessionDelegate
    private let configuration: HTTPClientConfiguration

    /// - Parameter sessionConfiguration: a base to start from (proxies, TLS settings); the client sets the
    ///   connection limit, timeouts and disables cookies and URLSession's own cache on a copy of it.
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
        let exchange = Exchange(
            request: request, session: session, delegate: delegate, configuration: configuration,
            cancellation: cancellation, completion: completion)
        if request.carriesCredential, let problem = Redactor.credentialTransportProblem(request.url) {
            exchange.finish(.failure(SourceError(.configuration, problem)))
            return
        }
        cancellation.onCancel { exchange.cancel() }
        exchange.startAttempt()
    }
}

/// One logical request: its attempts, the timers between them, and the single completion.
private final class Exchange: Sendable {
    private struct State {
        var attempt = 0
        /// The last attempt whose outcome was acted on: each attempt's first outcome wins.
        var handledAttempt = -1
        var finished = false
    }

    private let request: HTTPRequest
    private let session: URLSession
    private let delegate: SessionDelegate
    private let configuration: HTTPClientConfiguration
    private let cancellation: CancellationToken
    private let completion: @Sendable (Result<HTTPResponse, SourceError>) -> Void
    private let start = DispatchTime.now()
    private let state = Mutex(State())

    init(
        request: HTTPRequest, session: URLSession, delegate: SessionDelegate, configuration: HTTPClientConfiguration,
        cancellation: CancellationToken, completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        self.request = request
        self.session = session
        self.delegate = delegate
        self.configuration = configuration
        self.cancellation = cancellation
        self.completion = completion
    }

    /// Seconds the source has left (infinite without a deadline).
    private var remaining: Double { cancellation.remainingSeconds ?? .infinity }

    func startAttempt() {
        let timeout = min(configuration.requestTimeout, remaining)
        guard !cancellation.isCancelled, timeout > 0.01 else {
            finish(.failure(SourceError(.timeout, "the source's time ran out before \(request.method.rawValue) \(request.redactedURL) was sent")))
            return
        }
        // Our own timer (below) bounds the attempt exactly; URLSession's timeout, which libcurl applies in
        // whole seconds (a sub-second value fails at once), is only a backstop a little later.
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout.rounded(.up) + 1)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        if !request.headers.contains("User-Agent") {
            urlRequest.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        }
        let task = session.dataTask(with: urlRequest)
        let attempt: Int? = state.withLock { $0.finished ? nil : $0.attempt }
        guard let attempt else { return }
        delegate.register(task, SessionDelegate.Registration(
            maxBytes: configuration.maxResponseBytes, carriesCredential: request.carriesCredential,
            completion: { [self] outcome in handle(outcome, attempt: attempt) }))
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
            let seconds = JSONValue.double((timeout * 10).rounded() / 10).displayText
            handle(.timedOut(SourceError(.timeout, "no answer within \(seconds) s")), attempt: attempt)
        }
        task.resume()
    }

    func cancel() {
        finish(.failure(SourceError(.timeout, "cancelled: the source's time is up")))
    }

    private enum AttemptOutcome {
        case session(SessionDelegate.Outcome)
        case timedOut(SourceError)
    }

    private func handle(_ outcome: SessionDelegate.Outcome, attempt: Int) {
        handle(.session(outcome), attempt: attempt)
    }

    /// Acts on the first outcome of the current attempt; a later one (the transfer of an attempt that
    /// already timed out) is ignored.
    private func handle(_ attemptOutcome: AttemptOutcome, attempt: Int) {
        let isFirst = state.withLock { state -> Bool in
            guard !state.finished, state.attempt == attempt, state.handledAttempt < attempt else { return false }
            state.handledAttempt = attempt
            return true
        }
        guard isFirst else { return }
        let outcome: SessionDelegate.Outcome
        switch attemptOutcome {
        case .timedOut(let error):
            if let delay = retryDelay(after: attempt, retryAfter: nil) {
                scheduleRetry(after: delay, from: attempt)
            } else {
                finish(.failure(error.prefixedRetries(attempt)))
            }
            return
        case .session(let sessionOutcome):
            outcome = sessionOutcome
        }
        switch outcome {
        case .tooLarge:
            let mebibytes = JSONValue.double(Double(configuration.maxResponseBytes) / 1_048_576).displayText
            finish(.failure(SourceError(.badResponse, "the response is larger than \(mebibytes) MiB, the cap for this source")))
        case .failure(let error):
            let (mapped, retryable) = TransportError.map(error, url: request.url)
            if retryable, let delay = retryDelay(after: attempt, retryAfter: nil) {
                scheduleRetry(after: delay, from: attempt)
            } else {
                finish(.failure(mapped.prefixedRetries(attempt)))
            }
        case .response(let urlResponse, let body):
            var headers = HTTPHeaders()
            for (name, value) in urlResponse.allHeaderFields {
                headers.add(String(describing: name), String(describing: value))
            }
            let response = HTTPResponse(
                status: urlResponse.statusCode, headers: headers, body: body, url: urlResponse.url ?? request.url,
                retries: attempt)
            if RetryPolicy.isRetryable(response),
               let delay = retryDelay(after: attempt, retryAfter: response.rateLimitWait()) {
                scheduleRetry(after: delay, from: attempt)
            } else {
                finish(.success(response))
            }
        }
    }

    /// The wait before the next attempt, or nil when there is none: not idempotent, retries used up, or
    /// the wait (the server's `Retry-After`, else backoff) does not fit in the time left.
    private func retryDelay(after attempt: Int, retryAfter: TimeInterval?) -> TimeInterval? {
        guard request.method.isIdempotent, attempt < configuration.retry.maxRetries, !cancellation.isCancelled else {
            return nil
        }
        let delay = retryAfter ?? configuration.retry.backoff(forRetry: attempt)
        let minimumAttempt = 0.2
        guard delay + minimumAttempt < remaining, delay <= configuration.maxRetryWait || remaining.isFinite else {
            return nil
        }
        return delay
    }

    private func scheduleRetry(after delay: TimeInterval, from attempt: Int) {
        let proceed = state.withLock { state -> Bool in
            guard !state.finished, state.attempt == attempt else { return false }
            state.attempt += 1
            return true
        }
        guard proceed else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            startAttempt()
        }
    }

    func finish(_ result: Result<HTTPResponse, SourceError>) {
        let retries: Int? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            return state.attempt
        }
        guard let retries else { return }
        let result = result.mapError { $0.withMessage(Redactor.scrub($0.message, secrets: request.secrets)) }
        log(result, retries: retries)
        let completion = self.completion
        DispatchQueue.global().async { completion(result) }
    }

    private func log(_ result: Result<HTTPResponse, SourceError>, retries: Int) {
        let milliseconds = (DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
        let outcome: String
        let bytes: Int
        switch result {
        case .success(let response): (outcome, bytes) = ("\(response.status)", response.body.count)
        case .failure(let error): (outcome, bytes) = ("failed (\(error))", 0)
        }
        let retryText = retries == 1 ? "1 retry" : "\(retries) retries"
        var metadata: Logger.Metadata = [:]
        if let sourceID = configuration.sourceID { metadata["source"] = .string(sourceID) }
        configuration.logger.info(
            "\(request.method.rawValue) \(request.redactedURL) → \(outcome), \(bytes) bytes, \(milliseconds) ms, \(retryText)",
            metadata: metadata)
    }
}

extension SourceError {
    fileprivate func prefixedRetries(_ retries: Int) -> SourceError {
        retries == 0 ? self : withMessage("\(message) (after \(retries) \(retries == 1 ? "retry" : "retries"))")
    }
}
