import Foundation

/// A source as the run sees it: its manifest id, which provider serves it, and its limits.
public struct SourceDescriptor: Sendable, Hashable {
    /// The source's manifest id.
    public var id: String
    /// The provider's name (`"provider"` in the manifest).
    public var provider: String
    /// The source's time limit, in seconds.
    public var timeoutSeconds: Double
    /// The most requests it may have in flight at once.
    public var concurrency: Int

    /// A descriptor, as given.
    public init(id: String, provider: String, timeoutSeconds: Double, concurrency: Int) {
        self.id = id
        self.provider = provider
        self.timeoutSeconds = timeoutSeconds
        self.concurrency = concurrency
    }
}

/// How a source's run ended. Part of the output contract.
public enum SourceStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// It loaded everything.
    case ok
    /// It failed (`error` says why); items it delivered before are kept.
    case error
    /// Its time ran out; items it delivered before are kept.
    case timeout
    /// It was not run (disabled, or a setting was missing); `message` says why.
    case skipped
    /// Served from an older copy because the fresh load failed (persistent-store issue).
    case stale
}

/// How a source's data related to the persistent response cache. Part of the output contract (`"cache"`).
public enum CacheStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// Every response came from the cache, fresh, without a request.
    case hit
    /// Stored responses were revalidated with the server (304) and no new body was needed.
    case revalidated
    /// At least one response came from the network and was stored.
    case miss
    /// Served from a copy older than its time to live (stale-if-error, or `--offline`).
    case stale
    /// The cache was not read: a source that makes no HTTP requests, `cacheTTLSeconds: 0`, `--no-cache`, or
    /// no usable store.
    case off
}

/// One source's result: what it delivered, how it ended and how long it took.
public struct SourceReport: Sendable, Hashable {
    /// Which source this is.
    public var descriptor: SourceDescriptor
    /// How it ended.
    public var status: SourceStatus
    /// The items, unless the run streamed them (see `streamedItemCount`).
    public var items: [Item]
    /// How many items went to the run's `ItemStream` as they arrived instead of into `items`.
    public var streamedItemCount = 0
    /// How many items the manifest's filter dropped (they are in neither `items` nor `streamedItemCount`); nil
    /// when the source has no filter. Part of the output contract (`"filtered"`).
    public var filteredItemCount: Int?
    /// Problems that did not stop the source (one city of several not found).
    public var warnings: [String]
    /// Why it failed or timed out; nil when it did not.
    public var error: SourceError?
    /// Why a source was skipped, or other human context for its status.
    public var message: String?
    /// How long it took, in seconds.
    public var duration: TimeInterval
    /// How the response cache served this source (`.off` unless the run set it).
    public var cache: CacheStatus
    /// Asking again before this brings nothing new: the earliest `Cache-Control: max-age` expiry of its
    /// responses, or when the service said to come back after a failure (`error.retryAt`). A continuous run
    /// waits at least until then; not part of the output contract.
    public var refreshNotBefore: Date?

    /// A report; nothing streamed or filtered unless set afterwards.
    public init(
        descriptor: SourceDescriptor, status: SourceStatus, items: [Item] = [], warnings: [String] = [],
        error: SourceError? = nil, message: String? = nil, duration: TimeInterval = 0, cache: CacheStatus = .off
    ) {
        self.descriptor = descriptor
        self.status = status
        self.items = items
        self.warnings = warnings
        self.error = error
        self.message = message
        self.duration = duration
        self.cache = cache
    }

    /// The source's manifest id.
    public var id: String { descriptor.id }

    /// Every item the source delivered: kept in `items` or streamed.
    public var itemCount: Int { items.count + streamedItemCount }
}

/// The whole run: every selected source in manifest order, whatever order they finished in.
public struct AggregateReport: Sendable, Hashable {
    /// When the run made the report.
    public var generatedAt: Date
    /// Every selected source's report, in manifest order.
    public var sources: [SourceReport]
    /// Set by a date sort (`ItemShaping.order`): every item's position in output order, a merge across
    /// sources. Nil: sources in manifest order, each in its own order.
    public var merged: [ItemPosition]?

    /// A report of `sources` in manifest order, not merged.
    public init(generatedAt: Date, sources: [SourceReport]) {
        self.generatedAt = generatedAt
        self.sources = sources
    }

    /// Did any source fail (error, timeout, stale, or skipped for a reason other than being disabled)?
    public var hasFailures: Bool { hasFailures(allowingStale: false) }

    /// `hasFailures`, except that with `allowingStale` a source served from an older copy (`--allow-stale`)
    /// does not count.
    public func hasFailures(allowingStale: Bool) -> Bool {
        sources.contains { $0.status == .error || $0.status == .timeout || ($0.status == .stale && !allowingStale)
            || ($0.status == .skipped && $0.error != nil) }
    }
}
