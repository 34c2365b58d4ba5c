import Domain
import Foundation
import Synchronization

/// How a run uses the response cache (`aggregate run` flags).
public enum CacheMode: String, Sendable, Hashable {
    /// Fresh entries answer without a request; stale ones are revalidated.
    case normal
    /// `--offline`: no network at all; entries of any age answer, a request without one fails.
    case offline
    /// `--no-cache`: never read the cache, but store what arrives.
    case refresh
}

/// One source's use of the response cache, built by the composition root and handed to the HTTP layer
/// through `ProviderServices`.
public struct ResponseCachePolicy: Sendable {
    /// Where responses are kept between runs.
    public var store: any ResponseCacheStore
    /// The source the responses are kept under: one source never reads another's.
    public var sourceID: String
    /// The manifest's `cacheTTLSeconds` (greater than 0: a source with 0 gets no policy at all).
    public var ttlSeconds: Double
    /// Whether the cache answers, revalidates, or is bypassed (`--offline`, `--no-cache`).
    public var mode: CacheMode
    /// What the cache did for this source's requests, read after the run for the report.
    public var activity: CacheActivity
    /// Whether a fetch on a shared store takes its lease, so that other processes wanting the same response wait
    /// for it instead of asking too. False when no other process runs the source now (a fleet worker's claim).
    public var leasesFetches: Bool

    /// A policy for the source `sourceID` on `store`; by default fresh entries answer and fetches on a shared store
    /// take their lease.
    public init(
        store: any ResponseCacheStore, sourceID: String, ttlSeconds: Double, mode: CacheMode = .normal,
        activity: CacheActivity = CacheActivity(), leasesFetches: Bool = true
    ) {
        self.leasesFetches = leasesFetches
        self.store = store
        self.sourceID = sourceID
        self.ttlSeconds = ttlSeconds
        self.mode = mode
        self.activity = activity
    }
}

/// Counts what the response cache did for one source's requests. Thread-safe.
public final class CacheActivity: Sendable {
    /// How one request was answered.
    public enum Event: Sendable, Hashable {
        /// A fresh stored response, no request.
        case hit
        /// `--offline`: a stored response past its time to live, `age` seconds old.
        case staleHit(age: TimeInterval)
        /// A 304 confirmed the stored response.
        case revalidated
        /// The network answered (and the response was stored when cacheable).
        case miss
        /// `--no-cache`: the network answered without the cache being read.
        case bypassed
        /// `--offline` and nothing stored for the request.
        case offlineMiss
    }

    private let events = Mutex<[Event]>([])
    private let serverFreshness = Mutex<Date?>(nil)

    /// No events yet.
    public init() {}

    /// Counts one request's outcome; safe from any thread.
    public func record(_ event: Event) {
        events.withLock { $0.append(event) }
    }

    /// A response said (`Cache-Control: max-age`) it stays fresh until `date`: asking again before the
    /// earliest such date brings nothing new.
    public func noteServerFreshness(until date: Date) {
        serverFreshness.withLock { $0 = min($0 ?? date, date) }
    }

    /// The earliest time a response of this source said it stays fresh until, if any did.
    public var serverFreshUntil: Date? { serverFreshness.withLock { $0 } }

    /// Every outcome recorded so far, in order.
    public var recorded: [Event] { events.withLock { $0 } }

    /// Whether the source made any request through the cache layer (a source that never does is no HTTP
    /// source, and gets no last-good copy).
    public var isEmpty: Bool { events.withLock { $0.isEmpty } }

    /// How many requests `--offline` could not answer from the cache.
    public var offlineMisses: Int { recorded.filter { $0 == .offlineMiss }.count }

    /// The oldest stale response served, in seconds, if any was.
    public var oldestStaleAge: TimeInterval? {
        recorded.compactMap { if case .staleHit(let age) = $0 { age } else { nil } }.max()
    }

    /// The source's `"cache"` value: any network body makes it a miss, else any 304 a revalidation, else
    /// any stale answer stale, else a hit. `off` when the cache was bypassed or never consulted.
    public var status: CacheStatus {
        let events = recorded
        if events.contains(.miss) { return .miss }
        if events.contains(.revalidated) { return .revalidated }
        if events.contains(where: { if case .staleHit = $0 { true } else { false } }) { return .stale }
        if events.contains(.hit) { return .hit }
        return .off
    }
}
