import Domain
import Foundation
import ProviderKit
import SQLiteStore
import Synchronization

/// What the persistent store adds to one run.
///
/// Before: each HTTP source gets its response-cache policy (`services(for:identity:)`), which the container
/// composes around the source's live HTTP client (`SourceHTTPClients`). After (`applyCache`, `applyHistory`):
/// - each source's `cache` status is filled in;
/// - a source that ended `ok` leaves its items as the last good copy;
/// - a source that failed for a reason a later try may not have (network, 5xx, rate limit, timeout, the
///   run's deadline) is served from its last good copy instead, with status `stale` and the copy's age;
/// - with `--offline`, cached data of any age counts as success, and a source with nothing cached is
///   `skipped` ("not cached");
/// - every delivered item is recorded in the history, and with `--new` only items never seen before by
///   that source are kept.
///
/// The last good copy is kept per source rather than per request because a source fails as a whole: its
/// timeout or the run's deadline can strike between requests, and a multi-request source (pages, cities)
/// must not mix fresh and old pages. Only sources that made HTTP requests through the cache get copies.
final class RunStorage: Sendable {
    /// The notes for stderr and the report to print.
    struct Outcome: Sendable {
        var report: AggregateReport
        /// One line each, for people (stderr).
        var notes: [String]
        /// With `markNew`: per source, the ids its item history never saw before (a source without a history
        /// to ask is left out).
        var newItemIDs: [String: Set<String>] = [:]
        /// With `markNew`: the sources whose item history was empty before this run.
        var firstRunIDs: Set<String> = []
    }

    private let mode: CacheMode
    private let responses: (any ResponseCacheStore)?
    private let snapshots: (any SourceSnapshotRepository)?
    private let history: (any SeenItemsRepository)?
    private let queries: (@Sendable (_ source: SourceIdentity) -> any MoviesQueriesRepository)?
    private let activities = Mutex<[String: CacheActivity]>([:])
    /// With `--offline`, the sources without a response cache whose HTTP clients refused a request
    /// (`SourceServices.offlineRefusal`): such a source is reported skipped, not failed.
    private let offlineRefused = Mutex<Set<String>>([])
    /// The stored identity of each source of the run, by id (registered by `services(for:identity:)`).
    private let identities = Mutex<[String: SourceIdentity]>([:])
    private let now: @Sendable () -> Date
    /// The history is shared with other processes (PostgreSQL): see `recordSeen`.
    private let sharedHistory: Bool
    /// The run's sources are claimed by this process (`RunRequest.claimed`): fetches take no lease.
    private let claimed: Bool

    /// - Parameter store: nil runs without a store (it could not be opened): no cache, no history.
    convenience init(
        store: OpenedStore?, mode: CacheMode = .normal, claimed: Bool = false, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            responses: store?.responses, snapshots: store?.snapshots, history: store?.history, queries: store?.queries,
            mode: mode, sharedHistory: store?.isShared ?? false, claimed: claimed, now: now)
    }

    init(
        responses: (any ResponseCacheStore)?, snapshots: (any SourceSnapshotRepository)?, history: (any SeenItemsRepository)?,
        queries: (@Sendable (_ source: SourceIdentity) -> any MoviesQueriesRepository)? = nil, mode: CacheMode = .normal,
        sharedHistory: Bool = false, claimed: Bool = false, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.sharedHistory = sharedHistory
        self.claimed = claimed
        self.responses = responses
        self.snapshots = snapshots
        self.history = history
        self.queries = queries
        self.mode = mode
        self.now = now
    }

    /// Whether there is an item history to record in (no store, none).
    var keepsHistory: Bool { history != nil }

    /// The services of one source: its recent-queries repository, and its response-cache policy unless its
    /// TTL is 0 or there is no store. Registers `identity` as the source's for everything stored this run.
    func services(for source: Manifest.Source, identity: SourceIdentity) -> SourceServices {
        identities.withLock { $0[source.id] = identity }
        let moviesQueries = queries?(identity)
        guard let responses, source.cacheTTLSeconds > 0 else {
            var services = SourceServices(moviesQueries: moviesQueries)
            if mode == .offline {
                // --offline means no network at all, also for a source that keeps no cache to answer from.
                let why = responses == nil
                    ? "there is no store to serve it from" : "this source keeps no cache (cacheTTLSeconds is 0)"
                services.offlineRefusal = OfflineRefusal(reason: "--offline allows no network, and \(why)") {
                    [weak self] in self?.offlineRefused.withLock { _ = $0.insert(source.id) }
                }
            }
            return services
        }
        let policy = ResponseCachePolicy(
            store: responses, sourceID: source.id, ttlSeconds: source.cacheTTLSeconds, mode: mode, leasesFetches: !claimed)
        activities.withLock { $0[source.id] = policy.activity }
        return SourceServices(moviesQueries: moviesQueries, responseCache: policy)
    }

    /// A finished source's first half of the store's part (see the type's comment), as soon as it is done,
    /// sources being independent of each other here: the cache status, and the last good copy kept or served
    /// (per `query`, the run's `--query`). What it leaves are the source's items of this run, before `--new`
    /// (what a sink is offered); `applyHistory` is the second half.
    func applyCache(to report: SourceReport, query: String?, notes: inout [String]) -> SourceReport {
        var source = report
        if let activity = activities.withLock({ $0[source.id] }) {
            source.cache = activity.status
            source.refreshNotBefore = activity.serverFreshUntil
            if !activity.isEmpty {
                applyCopies(to: &source, activity: activity, variant: query ?? "", notes: &notes)
            }
        } else if source.status == .error, offlineRefused.withLock({ $0.contains(source.id) }) {
            // It failed because it needed the network: like a source with nothing cached, not run rather than
            // failed (whatever its provider made of the refusal's message).
            (source.status, source.items, source.message) = (.skipped, [], nil)
        }
        return source
    }

    /// The store's part's second half (after `applyCache`): the items recorded in the history and, with
    /// `newOnly`, only the new ones kept.
    func applyHistory(to report: SourceReport, newOnly: Bool, notes: inout [String]) -> SourceReport {
        var source = report
        if history != nil || newOnly {
            let recorded = recordSeen(source.items, sourceID: source.id, newOnly: newOnly)
            if newOnly, recorded.isFirstRun, !source.items.isEmpty {
                notes.append("\(source.id): first run with --new: all \(source.items.count) items are new")
            }
            source.items = recorded.items
            notes.append(contentsOf: recorded.note.map { ["\(source.id): \($0)"] } ?? [])
        }
        return source
    }

    /// How the response cache served `sourceID` so far (`.off` when it has no cache policy).
    func cacheStatus(of sourceID: String) -> CacheStatus {
        activities.withLock { $0[sourceID] }?.status ?? .off
    }

    /// The earliest `max-age` expiry of `sourceID`'s responses so far, if any said.
    func serverFreshUntil(of sourceID: String) -> Date? {
        activities.withLock { $0[sourceID] }?.serverFreshUntil
    }

    /// Whether `source`'s items can be printed as they arrive: nothing after the load can replace them,
    /// because nothing it loaded so far came through the response cache (a source that reads no cache has
    /// no last good copy to fall back on). Asked at its first batch, when an HTTP source has been answered.
    func canStream(_ source: SourceDescriptor) -> Bool {
        activities.withLock { $0[source.id] }?.isEmpty ?? true
    }

    /// Records each source's items in its history (and the archive) when nothing depends on which were new (no
    /// `--new`), all in one transaction.
    /// - Returns: by source id, a note for people for each source whose ids could not be recorded.
    func markSeen(_ batches: [(sourceID: String, items: [Item])]) -> [String: String] {
        guard let history else { return [:] }
        let known = batches.compactMap { batch in
            identity(of: batch.sourceID).map { SeenBatch(source: $0, items: ArchiveRedaction.redacted(batch.items)) }
        }
        guard !known.isEmpty else { return [:] }
        do {
            try history.markSeen(known, at: now())
            return [:]
        } catch {
            let note = "the item history could not be updated: \(error.message)"
            return Dictionary(known.map { ($0.source.id, note) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Records `items` in `sourceID`'s history; with `newOnly`, keeps only those it never delivered before.
    /// - Returns: the items to show, whether the source had no history before (told with `newOnly` only), and a
    ///   note for people when the history could not be used (the items are then all shown).
    func recordSeen(
        _ items: [Item], sourceID: String, newOnly: Bool
    ) -> (items: [Item], isFirstRun: Bool, note: String?) {
        guard let history, let source = identity(of: sourceID) else {
            return (items, false, newOnly ? "no item history (the store is unavailable): showing every item" : nil)
        }
        guard newOnly else { return (items, false, markSeen([(sourceID, items)])[sourceID]) }
        do {
            let seen = try history.recordSeen(by: source, items: ArchiveRedaction.redacted(items), at: now())
            return (items.filter { seen.unseen.contains($0.id) }, seen.isFirstRun, nil)
        } catch {
            // Another process sharing the history may announce these items: holding them back until the store
            // is back (they are still new then) is what keeps each item announced once.
            if sharedHistory {
                return ([], false, "the shared item history could not be updated (\(error.message)): its "
                    + "\(items.count) items are held back until the store is back, so none is announced twice")
            }
            return (items, false, "the item history could not be updated: \(error.message)")
        }
    }

    /// Records `items` in `sourceID`'s history, keeping them all, and tells which it never saw before: serve's
    /// item events (each item announced once, even when it leaves a source and comes back, and once across
    /// processes sharing the store).
    /// - Returns: nil ids when there is no history to ask (no store, or it failed: then `note` says why);
    ///   whether the history had nothing of the source before.
    func recordNew(_ items: [Item], sourceID: String) -> (ids: Set<String>?, isFirstRun: Bool, note: String?) {
        guard let history, let source = identity(of: sourceID) else { return (nil, false, nil) }
        do {
            let seen = try history.recordSeen(by: source, items: ArchiveRedaction.redacted(items), at: now())
            return (seen.unseen, seen.isFirstRun, nil)
        } catch {
            return (nil, false, "the item history could not be updated: \(error.message)")
        }
    }

    private func identity(of sourceID: String) -> SourceIdentity? {
        identities.withLock { $0[sourceID] }
    }

    /// Failure kinds a later try may not have: these are served from the last good copy.
    static let recoverableKinds: Set<SourceError.Kind> = [.network, .timeout, .rateLimited]

    private func applyCopies(to source: inout SourceReport, activity: CacheActivity, variant: String, notes: inout [String]) {
        guard let snapshots, let identity = identity(of: source.id) else { return }
        switch source.status {
        case .ok:
            if mode == .offline {
                if let age = activity.oldestStaleAge {
                    source.message = "offline: served from the cache, \(Self.describeAge(age)) old"
                }
            } else if source.cache != .hit {
                do {
                    try snapshots.saveLastGood(SourceSnapshot(source: identity, variant: variant, items: source.items, savedAt: now()))
                } catch {
                    notes.append("\(source.id): the last good copy could not be saved: \(error.message)")
                }
            }
        case .error, .timeout:
            guard mode != .refresh, mode == .offline || Self.recoverableKinds.contains(source.error?.kind ?? .configuration) else { return }
            let copy: SourceSnapshot?
            do {
                copy = try snapshots.lastGood(of: identity, variant: variant)
            } catch {
                notes.append("\(source.id): \(error.message)")
                copy = nil
            }
            if let copy {
                let age = Self.describeAge(now().timeIntervalSince(copy.savedAt))
                source.items = copy.items
                source.cache = .stale
                if mode == .offline {
                    (source.status, source.error) = (.ok, nil)
                    source.message = "offline: served from the last good copy, \(age) old"
                } else {
                    source.status = .stale
                    source.message = "served from the last good copy, \(age) old, because this run's load failed"
                }
            } else if mode == .offline, activity.offlineMisses > 0 {
                source.status = .skipped
                source.items = []
                source.error = SourceError(.network, "not cached; --offline allows no network")
                source.message = nil
            }
        case .skipped, .stale:
            break
        }
    }

    /// `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`.
    static func describeAge(_ seconds: TimeInterval) -> String {
        let total = max(0, Int(seconds.rounded()))
        switch total {
        case ..<60: return "\(total) s"
        case ..<3600: return "\(total / 60) min"
        case ..<86_400:
            let minutes = (total % 3600) / 60
            return "\(total / 3600) h" + (minutes > 0 ? " \(minutes) min" : "")
        default:
            let hours = (total % 86_400) / 3600
            return "\(total / 86_400) d" + (hours > 0 ? " \(hours) h" : "")
        }
    }
}
