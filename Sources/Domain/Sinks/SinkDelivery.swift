import Foundation

/// One item on its way to a sink: the source that delivered it and the item.
public struct SinkItem: Sendable, Hashable {
    /// The manifest id of the source that delivered it.
    public var source: String
    /// The item.
    public var item: Item

    /// `item`, delivered by `source`.
    public init(source: String, item: Item) {
        self.source = source
        self.item = item
    }
}

/// A batch of items for one sink, as the outbox keeps it until the receiver took it.
///
/// `id` is the `deliveryId` the receiver sees: it stays the same on every attempt (a redelivery after a
/// failure, a crash, a kill), so a receiver can drop a batch it already took.
public struct SinkDelivery: Sendable, Hashable {
    /// The delivery's id, the same on every attempt.
    public var id: String
    /// The sink's name in the manifest.
    public var sink: String
    /// The items as NDJSON (one per line, each ending in a newline) in the output contract's item shape
    /// (`JSONWriter.item`), exactly as first queued: every attempt sends the same bytes.
    public var itemLines: Data
    /// How many items `itemLines` holds.
    public var itemCount: Int
    /// Attempts made so far (in every run).
    public var attempts: Int
    /// When it was queued.
    public var createdAt: Date

    /// A delivery as the outbox keeps it.
    public init(id: String, sink: String, itemLines: Data, itemCount: Int, attempts: Int = 0, createdAt: Date) {
        self.id = id
        self.sink = sink
        self.itemLines = itemLines
        self.itemCount = itemCount
        self.attempts = attempts
        self.createdAt = createdAt
    }
}

/// Where a delivery is in its life.
public enum SinkDeliveryState: String, Sendable, Hashable, CaseIterable {
    /// Waiting to be sent (never tried, or tried and worth trying again).
    case pending
    /// The receiver refused it in a way a retry cannot change (a 4xx other than 429); kept until
    /// `aggregate sinks retry` or `drop`.
    case failed
    /// The receiver took it.
    case delivered
}

/// A delivery as `aggregate sinks status` lists it (no payload).
public struct SinkDeliverySummary: Sendable, Hashable {
    /// The delivery's id.
    public var id: String
    /// The sink's name.
    public var sink: String
    /// Where it is in its life.
    public var state: SinkDeliveryState
    /// How many items it holds.
    public var itemCount: Int
    /// Attempts made so far.
    public var attempts: Int
    /// When it was queued.
    public var createdAt: Date
    /// Why the last attempt failed (already free of secrets).
    public var lastError: String?

    /// A summary as the outbox lists it.
    public init(
        id: String, sink: String, state: SinkDeliveryState, itemCount: Int, attempts: Int, createdAt: Date,
        lastError: String?
    ) {
        self.id = id
        self.sink = sink
        self.state = state
        self.itemCount = itemCount
        self.attempts = attempts
        self.createdAt = createdAt
        self.lastError = lastError
    }
}

/// A sink's deliveries counted by state.
public struct SinkDeliveryCounts: Sendable, Hashable {
    /// The sink's name.
    public var sink: String
    /// Deliveries waiting to be sent.
    public var pending: Int
    /// Deliveries refused for good.
    public var failed: Int
    /// Deliveries the receiver took.
    public var delivered: Int
    /// When the oldest pending delivery was queued.
    public var oldestPending: Date?

    /// Counts for `sink`; 0 unless given.
    public init(sink: String, pending: Int = 0, failed: Int = 0, delivered: Int = 0, oldestPending: Date? = nil) {
        self.sink = sink
        self.pending = pending
        self.failed = failed
        self.delivered = delivered
        self.oldestPending = oldestPending
    }
}

/// The outbox of every sink: what each sink has seen, and the deliveries not yet taken.
///
/// "Nothing lost, nothing twice" rests on `enqueue`: recording an item as seen by a sink and queueing it
/// for delivery happen in one transaction, so a crash leaves either both or neither. Deliveries are sent
/// after they are committed and marked delivered only once the receiver took them, so a crash in between
/// sends the same delivery (same id) again. Implemented by the SQLite store; a PostgreSQL store implements
/// the same contract.
public protocol SinkOutboxRepository: Sendable {
    /// In one transaction: records `items` as seen by `sink` and queues those it never saw, in their order,
    /// as deliveries of at most `batchSize` items each.
    /// - Returns: the deliveries queued (none when every item was seen before).
    func enqueue(sink: String, items: [SinkItem], batchSize: Int, at date: Date) throws(SourceError) -> [SinkDelivery]

    /// `sink`'s pending deliveries that are due at `now` (a receiver's `Retry-After` can put one off), oldest
    /// first.
    func pending(sink: String, now: Date) throws(SourceError) -> [SinkDelivery]

    /// The receiver took the delivery: it is never sent again.
    func markDelivered(_ deliveryID: String, at date: Date) throws(SourceError)

    /// An attempt failed. `permanently`: the delivery becomes `failed` (a retry cannot help); otherwise it
    /// stays pending, not sent again before `notBefore` when given.
    func markFailed(
        _ deliveryID: String, error: String, permanently: Bool, notBefore: Date?, at date: Date
    ) throws(SourceError)

    /// Every sink with deliveries, counted by state, sorted by sink id.
    func counts() throws(SourceError) -> [SinkDeliveryCounts]

    /// The deliveries not yet delivered (pending and failed), oldest first.
    func undelivered() throws(SourceError) -> [SinkDeliverySummary]

    /// The undelivered deliveries `id` names: a delivery id, or a sink id for all of that sink's.
    func undelivered(matching id: String) throws(SourceError) -> [SinkDeliverySummary]

    /// Makes the undelivered deliveries `id` names (a delivery id or a sink id) pending again and due now:
    /// failed ones, and pending ones a receiver's `Retry-After` put off.
    /// - Returns: how many.
    func retry(_ id: String) throws(SourceError) -> Int

    /// Removes the undelivered deliveries `id` names (a delivery id or a sink id): they are never sent.
    /// - Returns: how many.
    func drop(_ id: String) throws(SourceError) -> Int
}
