import Domain
import Foundation
import HTTPClient
import Logging
import Synchronization

/// What one attempt of a request ended with, in the transport's neutral words.
enum AttemptOutcome: Sendable {
    /// An answer, whatever its status (`retries` is filled in by the exchange).
    case response(HTTPResponse)
    /// The body went past the size cap.
    case tooLarge
    /// No usable answer; `retryable` says whether repeating the request can help (a certificate never will).
    case failure(SourceError, retryable: Bool)
}

/// Stops an attempt the exchange no longer waits for (it timed out, or the source was cancelled), then calls its
/// argument once the transfer is gone (its connection closed or back in the cache): the attempt's slots are given
/// back only then, so the limit on requests in flight counts every transfer still running.
typealias AttemptStop = @Sendable (_ removed: @escaping @Sendable () -> Void) -> Void

/// One way of sending a single attempt (`CurlHTTPClient`; a test's fake). The exchange owns everything around it
/// (attempts, timers, retries, the verbose line, the single completion).
protocol AttemptTransport: Sendable {
    /// Starts one attempt. `completion` may run more than once or late (a transfer that outlived its
    /// attempt); the exchange acts only on the first outcome of the current attempt.
    /// - Returns: how to stop the attempt once the exchange is done with it, or nil when nothing runs (the
    ///   attempt failed before a transfer started).
    func startAttempt(
        _ request: HTTPRequest, timeout: TimeInterval, completion: @escaping @Sendable (AttemptOutcome) -> Void
    ) -> AttemptStop?
    /// What the verbose line adds about the way the request goes ("via proxy http://host:port"), or nil.
    func routeNote(for request: HTTPRequest) -> String?
    /// The source's own limit on its requests in flight (its `concurrency`): the transport's connections are
    /// shared by every source (`CurlLoop`), so their limit does not hold one source back.
    var sourceSlots: RequestSlots { get }
}

extension AttemptTransport {
    /// Sends `request` through this transport with retries and the source's limits (see `HTTPFetching`).
    func exchange(
        _ request: HTTPRequest, configuration: HTTPClientConfiguration, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        let exchange = Exchange(
            request: request, transport: self, configuration: configuration, cancellation: cancellation,
            completion: completion)
        if request.carriesCredential, let problem = Redactor.credentialTransportProblem(request.url) {
            exchange.finish(.failure(SourceError(.configuration, problem)))
            return
        }
        exchange.forgetOnFinish(cancellation.onCancel { exchange.cancel() })
        exchange.startAttempt()
    }
}

/// One logical request: its attempts, the timers between them, and the single completion.
final class Exchange: Sendable {
    typealias Completion = @Sendable (Result<HTTPResponse, SourceError>) -> Void

    private struct State {
        var attempt = 0
        /// The last attempt whose outcome was acted on: each attempt's first outcome wins.
        var handledAttempt = -1
        var finished = false
        /// Stops the current attempt's transfer; taken (and called) once its first outcome was acted on.
        var stopAttempt: AttemptStop?
        /// The current attempt's slots (the source's, then the process-wide limit's), given back with its
        /// first outcome.
        var slots: [RequestSlot] = []
        /// The exchange's place among the answers held in memory (`RequestSlots.answers`): taken before its first
        /// attempt, given back once its source has read the answer.
        var answerSlot: RequestSlot?
        /// Taken by `finish`: an attempt's timer keeps this exchange until its deadline, and the completion holds
        /// what the source made of the response (its items), which must not live that long.
        var completion: Completion?
        /// The exchange's handler on the source's token, removed by `finish`: the token and the exchange hold each
        /// other, and a source's token is never cancelled when it ends well, so without the removal every exchange
        /// (its client, request and transport) would live as long as the process.
        var cancelRegistration: Int?
    }

    private let request: HTTPRequest
    private let transport: any AttemptTransport
    private let configuration: HTTPClientConfiguration
    private let cancellation: CancellationToken
    private let start = DispatchTime.now()
    private let state: Mutex<State>

    init(
        request: HTTPRequest, transport: any AttemptTransport, configuration: HTTPClientConfiguration,
        cancellation: CancellationToken, completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        self.request = request
        self.transport = transport
        self.configuration = configuration
        self.cancellation = cancellation
        self.state = Mutex(State(completion: completion))
    }

    /// Seconds the source has left (infinite without a deadline).
    private var remaining: Double { cancellation.remainingSeconds ?? .infinity }

    /// Sends the next attempt once the source's `concurrency` and then the process-wide limit have a slot for it.
    /// The source's slot is taken first, so a source waiting on its own limit never holds one of the process's.
    /// While it waits for the process-wide limit the source's clock is paused (the run's backlog is not the
    /// server's slowness; `--deadline` still bounds the run), and the attempt's own timeout starts only when it is
    /// handed to the transport: 10,000 sources at 256 in flight do not time out in the queue.
    func startAttempt() {
        transport.sourceSlots.acquire { [self] own in
            guard let shared = configuration.requestSlots else { return send(holding: [own]) }
            let resume = cancellation.pauseDeadline()
            holdAnswerSlot(of: shared) { [self] in
                shared.acquire { [self] slot in
                    resume()
                    send(holding: [own, slot])
                }
            }
        }
    }

    /// Takes the exchange's place among the answers held in memory, once (a retry keeps it), then `proceed`s.
    private func holdAnswerSlot(of shared: RequestSlots, then proceed: @escaping @Sendable () -> Void) {
        guard let answers = shared.answers, state.withLock({ $0.answerSlot == nil }) else { return proceed() }
        answers.acquire { [self] slot in
            let kept = state.withLock { state -> Bool in
                guard !state.finished else { return false }
                state.answerSlot = slot
                return true
            }
            if !kept { slot.release() }
            proceed()  // a finished exchange sends nothing (`send` gives its slots back)
        }
    }

    private func send(holding slots: [RequestSlot]) {
        let left = remaining
        let timeout = min(configuration.requestTimeout, left)
        guard !cancellation.isCancelled, timeout > 0.01 else {
            slots.forEach { $0.release() }
            finish(.failure(SourceError(.timeout, "the source's time ran out before \(request.method.rawValue) \(request.redactedURL) was sent")))
            return
        }
        let attempt: Int? = state.withLock { state in
            guard !state.finished else { return nil }
            state.slots = slots
            return state.attempt
        }
        guard let attempt else {
            slots.forEach { $0.release() }
            return
        }
        // When the source's remaining time is what bounds the attempt, the source's deadline is what runs out and
        // reports it (the source times out). The attempt's own timer then waits a moment longer, only to end the
        // attempt: at the same instant the two raced, and the attempt's failure could reach the provider first
        // and turn a timed-out source into an ok one with a warning.
        let boundBySource = left < configuration.requestTimeout
        // Weakly: the timer stays queued for the whole timeout after an answer that came at once, and must not keep
        // the exchange (its source's client, request and parser) alive that long. A running transfer holds the
        // exchange through its completion until it ends.
        // On the source's clock (its token's), as its deadline is.
        cancellation.clock.wake(after: timeout + (boundBySource ? 0.25 : 0)) { [weak self] in
            guard let self else { return }
            let seconds = JSONValue.double((timeout * 10).rounded() / 10).displayText
            handle(.failure(SourceError(.timeout, "no answer within \(seconds) s"), retryable: true), attempt: attempt,
                   transferEnded: false)
        }
        let stop = transport.startAttempt(request, timeout: timeout) { [self] outcome in
            handle(outcome, attempt: attempt, transferEnded: true)
        }
        guard let stop else { return }
        let kept = state.withLock { state -> Bool in
            guard !state.finished, state.handledAttempt < attempt else { return false }
            state.stopAttempt = stop
            return true
        }
        // The attempt was over before its stop could be kept (stopping a finished transfer does nothing).
        if !kept { stop {} }
    }

    func cancel() {
        finish(.failure(SourceError(.timeout, "cancelled: the source's time is up")))
    }

    /// Acts on the first outcome of the current attempt; a later one (the transfer of an attempt that
    /// already timed out) is ignored. `transferEnded`: the outcome is the transfer's own, so there is nothing to stop.
    private func handle(_ outcome: AttemptOutcome, attempt: Int, transferEnded: Bool) {
        let (isFirst, stop, slots) = state.withLock { state -> (Bool, AttemptStop?, [RequestSlot]) in
            guard !state.finished, state.attempt == attempt, state.handledAttempt < attempt else { return (false, nil, []) }
            state.handledAttempt = attempt
            defer { (state.stopAttempt, state.slots) = (nil, []) }
            return (true, state.stopAttempt, state.slots)
        }
        guard isFirst else { return }
        // The transfer is no longer waited for: when the exchange's timer won, it would otherwise hold its
        // connection until the transport's own timeout.
        Self.stop(transferEnded ? nil : stop, thenRelease: slots)
        switch outcome {
        case .tooLarge:
            let mebibytes = JSONValue.double(Double(configuration.maxResponseBytes) / 1_048_576).displayText
            finish(.failure(SourceError(.badResponse, "the response is larger than \(mebibytes) MiB, the cap for this source")))
        case .failure(let error, let retryable):
            if retryable, let delay = retryDelay(after: attempt, retryAfter: nil) {
                scheduleRetry(after: delay, from: attempt)
            } else {
                finish(.failure(error.prefixedRetries(attempt)))
            }
        case .response(var response):
            response.retries = attempt
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
        cancellation.clock.wake(after: delay) { [self] in
            startAttempt()
        }
    }

    /// Keeps `registration` (the exchange's handler on its token) for `finish` to remove; at once when it is over.
    func forgetOnFinish(_ registration: Int) {
        let over = state.withLock { state -> Bool in
            if !state.finished { state.cancelRegistration = registration }
            return state.finished
        }
        if over { cancellation.removeHandler(registration) }
    }

    func finish(_ result: Result<HTTPResponse, SourceError>) {
        typealias Finished = (
            retries: Int, stop: AttemptStop?, slots: [RequestSlot], completion: Completion?, answerSlot: RequestSlot?,
            registration: Int?)
        let finished = state.withLock { state -> Finished? in
            guard !state.finished else { return nil }
            state.finished = true
            defer {
                (state.stopAttempt, state.slots, state.completion, state.answerSlot) = (nil, [], nil, nil)
                state.cancelRegistration = nil
            }
            return (state.attempt, state.stopAttempt, state.slots, state.completion, state.answerSlot,
                    state.cancelRegistration)
        }
        guard let (retries, stop, slots, completion, answerSlot, registration) = finished else { return }
        if let registration { cancellation.removeHandler(registration) }
        Self.stop(stop, thenRelease: slots)
        let result = result.mapError { $0.withMessage(Redactor.scrub($0.message, secrets: request.secrets)) }
        log(result, retries: retries)
        guard let completion else {
            answerSlot?.release()
            return
        }
        // The answer stays counted until its source has read it: when parsing is slower than the network, at most
        // `RequestSlots.answers` of them wait in memory.
        DispatchQueue.responseDelivery.async {
            completion(result)
            answerSlot?.release()
        }
    }

    /// Stops the transfer, if one runs, and gives its slots back once it is out of the transport.
    private static func stop(_ stop: AttemptStop?, thenRelease slots: [RequestSlot]) {
        guard let stop else { return slots.forEach { $0.release() } }
        stop { slots.forEach { $0.release() } }
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
        let route = transport.routeNote(for: request).map { ", \($0)" } ?? ""
        var metadata: Logger.Metadata = [:]
        if let sourceID = configuration.sourceID { metadata["source"] = .string(sourceID) }
        configuration.logger.info(
            "\(request.method.rawValue) \(request.redactedURL) → \(outcome), \(bytes) bytes, \(milliseconds) ms, \(retryText)\(route)",
            metadata: metadata)
    }
}

extension SourceError {
    fileprivate func prefixedRetries(_ retries: Int) -> SourceError {
        retries == 0 ? self : withMessage("\(message) (after \(retries) \(retries == 1 ? "retry" : "retries"))")
    }
}
