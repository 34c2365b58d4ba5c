import Foundation

/// What to do after one attempt of a delivery: a state machine without a clock (the caller waits).
///
/// Within one pass a delivery is tried up to `1 + maxRetries` times, waiting `baseDelay × 2^retry` (scaled
/// by a jitter factor in 0.5…1, capped at `maxDelay`) between tries, or what the receiver's `Retry-After`
/// says. A wait longer than `maxWait` is not taken in this pass: the delivery stays pending, not due before
/// the receiver's time, and the next run or cycle sends it.
public struct SinkRetryPolicy: Sendable, Hashable {
    /// What to do with the delivery.
    public enum Decision: Sendable, Hashable {
        /// The receiver took it: mark it delivered.
        case delivered
        /// Try again after this many seconds.
        case retry(after: TimeInterval)
        /// Leave it pending for a later pass; `notBefore`: seconds from now the receiver asked to wait.
        case keepPending(notBefore: TimeInterval?)
        /// Refused for good: mark it failed and go on with the next delivery.
        case fail
    }

    /// Retries within one pass after the first attempt.
    public var maxRetries: Int
    /// The first wait between attempts, doubled each retry.
    public var baseDelay: TimeInterval
    /// The longest wait between attempts.
    public var maxDelay: TimeInterval
    /// The longest wait taken inside one pass.
    public var maxWait: TimeInterval

    /// The retries a sink makes when its manifest does not say.
    public static let defaultMaxRetries = 3

    /// A policy; negative values are taken as 0, and `maxDelay` is at least `baseDelay`.
    public init(
        maxRetries: Int = SinkRetryPolicy.defaultMaxRetries, baseDelay: TimeInterval = 1, maxDelay: TimeInterval = 30,
        maxWait: TimeInterval = 60
    ) {
        self.maxRetries = max(0, maxRetries)
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(self.baseDelay, maxDelay)
        self.maxWait = max(0, maxWait)
    }

    /// - Parameters:
    ///   - result: how the attempt ended.
    ///   - retry: retries already made in this pass (0 after the first attempt).
    ///   - jitter: a factor in 0.5…1 (random in production, fixed in tests).
    public func decide(after result: SinkAttemptResult, retry: Int, jitter: Double) -> Decision {
        switch result {
        case .delivered:
            return .delivered
        case .rejected:
            return .fail
        case .retryable(_, let retryAfter):
            guard retry < maxRetries else { return .keepPending(notBefore: retryAfter) }
            let wait = retryAfter ?? backoff(retry: retry, jitter: jitter)
            return wait <= maxWait ? .retry(after: wait) : .keepPending(notBefore: retryAfter)
        }
    }

    /// The exponential backoff before retry number `retry` (0-based).
    public func backoff(retry: Int, jitter: Double) -> TimeInterval {
        min(maxDelay, baseDelay * pow(2, Double(min(retry, 30)))) * min(1, max(0.5, jitter))
    }
}
