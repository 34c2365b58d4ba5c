import Foundation

/// How one attempt to hand a delivery to its receiver ended.
public enum SinkAttemptResult: Sendable, Hashable {
    /// The receiver took it.
    case delivered
    /// Worth another try: no answer, a timeout, a 5xx or a 429 (`retryAfter`: what the receiver asked for).
    case retryable(SourceError, retryAfter: TimeInterval?)
    /// A retry cannot change the answer (a 4xx other than 429).
    case rejected(SourceError)
}

/// Sends deliveries to one sink's receiver (a webhook, a program). One attempt per call, no retries of
/// its own: `DeliverToSinkUseCase` decides about retrying.
public protocol SinkTransport: Sendable {
    /// `completion` runs exactly once, on no particular thread; a cancelled attempt ends soon after
    /// `cancellation` fires (with `.retryable`).
    func send(
        _ delivery: SinkDelivery, cancellation: CancellationToken,
        completion: @escaping @Sendable (SinkAttemptResult) -> Void
    )
}

/// What one pass of a sink's deliveries did (after a run, or a watch cycle).
public struct SinkReport: Sendable, Hashable {
    /// The sink's name.
    public var id: String
    /// Deliveries queued by this run, and their items.
    public var queued = 0
    /// See `queued`.
    public var queuedItems = 0
    /// Deliveries the receiver took in this pass (older ones included), and their items.
    public var delivered = 0
    /// See `delivered`.
    public var deliveredItems = 0
    /// Deliveries the receiver refused for good in this pass (they are `failed` now).
    public var rejected = 0
    /// Deliveries left pending after the pass (not due yet, or the receiver could not take them now).
    public var pending = 0
    /// Why this pass did not deliver everything, one line each, free of secrets. Empty when nothing failed.
    public var errors: [String] = []
    /// This run's items could not be queued (the store was out of reach): nothing was recorded as seen, so the
    /// source's next run offers them again. A fleet worker runs such sources again soon.
    public var unqueued = false

    /// An empty report for sink `id`.
    public init(id: String) {
        self.id = id
    }

    /// A delivery failed, or the sink could not be used: exit 1 unless `--allow-sink-failures`.
    public var hasFailures: Bool { !errors.isEmpty }
}
