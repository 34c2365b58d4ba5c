@testable import App
import Domain
import Foundation
import StoreSupport
import HTTPClient
import SQLiteStore
import ProviderTesting
import ProviderKit
import Synchronization
import Testing

/// A manifest source and a run's report of it, built by hand: `RunStorage` works on finished reports.
private func source(_ id: String = "weather", ttl: Double = 300) -> Manifest.Source {
    Manifest.Source(id: id, provider: "echo", enabled: true, timeoutSeconds: 5, concurrency: 2, cacheTTLSeconds: ttl,
                    options: .object([:]), index: 0)
}

private func report(_ status: SourceStatus, items: [String] = [], error: SourceError? = nil, id: String = "weather") -> AggregateReport {
    AggregateReport(generatedAt: Date(), sources: [SourceReport(
        descriptor: SourceDescriptor(id: id, provider: "echo", timeoutSeconds: 5, concurrency: 2), status: status,
        items: items.map { Item(kind: .record, id: $0, title: $0) }, error: error)])
}

final class RunClock: Sendable {
    private let value = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { value.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { value.withLock { $0 += seconds } }
}

@Suite("What the store adds to a run: cache status, last good copies, offline, history")
struct RunStorageTests {
    let database: AppDatabase
    let clock = RunClock()

    init() async throws {
        let directory = ScratchDirectory.path("aggregate-run")
        database = try await blocking { try AppDatabase.open(at: directory.appendingPathComponent("aggregate.sqlite")) }
    }

    /// One run: plan the source (its cache policy), let `events` happen to its requests, finish `loaded`.
    private func run(
        _ loaded: AggregateReport, events: [CacheActivity.Event] = [.miss], mode: CacheMode = .normal, ttl: Double = 300,
        newOnly: Bool = false
    ) async -> RunStorage.Outcome {
        let storage = RunStorage(store: .sqlite(database), mode: mode, now: { [clock] in clock.now })
        let services = storage.services(for: source(ttl: ttl), identity: .testing("weather"))
        for event in events { services.responseCache?.activity.record(event) }
        // SQLite work runs on a thread of its own, never on the shared pool the loopback servers need.
        return await onOwnThread { storage.finishAll(loaded, newOnly: newOnly) }
    }

    @Test("a source that fails for a network reason is served from its last good copy, stale, with the copy's age")
    func staleIfError() async throws {
        _ = await run(report(.ok, items: ["a", "b"]))
        clock.advance(2 * 3600 + 5 * 60)
        let failed = await run(report(.error, items: ["partial"], error: SourceError(.network, "HTTP 503 Service Unavailable")))
        let served = try #require(failed.report.sources.first)
        #expect(served.status == .stale)
        #expect(served.cache == .stale)
        #expect(served.items.map(\.id) == ["a", "b"], "the copy replaces the partial result")
        #expect(served.error?.message == "HTTP 503 Service Unavailable", "why it is stale stays visible")
        #expect(served.message?.contains("2 h 5 min old") == true)
        #expect(failed.report.hasFailures(allowingStale: false))
        #expect(!failed.report.hasFailures(allowingStale: true))
    }

    @Test("a timeout (the source's or the run's deadline) is served stale too", arguments: [SourceStatus.timeout])
    func staleOnTimeout(status: SourceStatus) async throws {
        _ = await run(report(.ok, items: ["a"]))
        let timedOut = await run(report(status, error: SourceError(.timeout, "the run's deadline passed")))
        #expect(timedOut.report.sources.first?.status == .stale)
        #expect(timedOut.report.sources.first?.items.map(\.id) == ["a"])
    }

    @Test("failures a retry cannot fix (a rejected key), --no-cache, and sources without HTTP requests get no copy")
    func noStale() async throws {
        _ = await run(report(.ok, items: ["a"]))
        let unauthorized = await run(report(.error, error: SourceError(.unauthorized, "HTTP 401")))
        #expect(unauthorized.report.sources.first?.status == .error)
        let bypassing = await run(report(.error, error: SourceError(.network, "down")), events: [.bypassed], mode: .refresh)
        #expect(bypassing.report.sources.first?.status == .error)
        #expect(bypassing.report.sources.first?.cache == .off)
        let noRequests = await run(report(.error, error: SourceError(.network, "down")), events: [])
        #expect(noRequests.report.sources.first?.status == .error)
    }

    @Test("cacheTTLSeconds 0 turns the cache off for the source")
    func ttlZero() async {
        let storage = RunStorage(store: .sqlite(database))
        #expect(storage.services(for: source(ttl: 0), identity: .testing("weather")).responseCache == nil)
        #expect(storage.services(for: source(ttl: 1), identity: .testing("weather")).responseCache?.ttlSeconds == 1)
        let finished = await onOwnThread { storage.finishAll(report(.ok, items: ["a"])) }
        #expect(finished.report.sources.first?.cache == .off)
    }

    @Test("the cache status of each source reaches the report")
    func cacheStatus() async {
        #expect(await run(report(.ok), events: [.hit, .hit]).report.sources.first?.cache == .hit)
        #expect(await run(report(.ok), events: [.hit, .revalidated]).report.sources.first?.cache == .revalidated)
        #expect(await run(report(.ok), events: [.hit, .miss]).report.sources.first?.cache == .miss)
    }

    @Test("offline: a source with nothing cached is skipped as not cached; one with a last good copy is served from it")
    func offline() async throws {
        let uncached = await run(report(.error, error: SourceError(.network, "not cached, and --offline allows no network")),
                           events: [.offlineMiss], mode: .offline)
        let skipped = try #require(uncached.report.sources.first)
        #expect(skipped.status == .skipped)
        #expect(skipped.error?.message.contains("not cached") == true)
        #expect(uncached.report.hasFailures)

        _ = await run(report(.ok, items: ["a"]))
        clock.advance(600)
        let cached = await run(report(.error, error: SourceError(.network, "not cached")), events: [.offlineMiss], mode: .offline)
        let served = try #require(cached.report.sources.first)
        #expect(served.status == .ok && served.cache == .stale && served.items.map(\.id) == ["a"])
        #expect(served.message == "offline: served from the last good copy, 10 min old")

        let old = await run(report(.ok, items: ["a"]), events: [.staleHit(age: 7200)], mode: .offline)
        #expect(old.report.sources.first?.message == "offline: served from the cache, 2 h old")
        #expect(!old.report.hasFailures)
    }

    @Test("offline without a response cache (TTL 0): nothing is sent; a source that asked is skipped, whatever it said")
    func offlineWithoutCache() async throws {
        let storage = RunStorage(store: .sqlite(database), mode: .offline)
        let services = storage.services(for: source(ttl: 0), identity: .testing("weather"))
        #expect(services.responseCache == nil)
        let clients = SourceHTTPClients(live: NoNetwork(), offlineRefusal: services.offlineRefusal)
        let client = clients.makeClient(HTTPClientConfiguration())
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:9/feed.xml")!)
        let result = await withCheckedContinuation { continuation in
            client.fetch(request, cancellation: CancellationToken()) { continuation.resume(returning: $0) }
        }
        guard case .failure(let refusal) = result else { Issue.record("a request got through: \(result)"); return }
        #expect(refusal.message == "--offline allows no network, and this source keeps no cache (cacheTTLSeconds is 0)")
        // The provider words its failure its own way: the refusal, not its message, makes the source skipped.
        let failed = report(.error, error: SourceError(.network, "feed: no answer"))
        let finished = await onOwnThread { storage.finishAll(failed) }
        #expect(finished.report.sources.first?.status == .skipped)

        let silent = RunStorage(store: .sqlite(database), mode: .offline)
        _ = silent.services(for: source(ttl: 0), identity: .testing("weather"))
        let unsent = await onOwnThread { silent.finishAll(report(.error, error: SourceError(.parse, "not a feed"))) }
        #expect(unsent.report.sources.first?.status == .error, "a source that sent nothing failed on its own")
    }

    @Test("--new keeps only items the source never delivered before; the first run keeps all and says so")
    func newOnly() async throws {
        let first = await run(report(.ok, items: ["a", "b"]), newOnly: true)
        #expect(first.report.sources.first?.items.map(\.id) == ["a", "b"])
        #expect(first.notes == ["weather: first run with --new: all 2 items are new"])

        let plain = await run(report(.ok, items: ["a", "c"]))  // without --new: recorded, all printed
        #expect(plain.report.sources.first?.items.map(\.id) == ["a", "c"])

        let second = await run(report(.ok, items: ["a", "b", "c", "d"]), newOnly: true)
        #expect(second.report.sources.first?.items.map(\.id) == ["d"])
        #expect(second.notes.isEmpty)
    }

    @Test("without a store the run goes on: no cache, and --new says it cannot filter")
    func noStore() {
        let storage = RunStorage(store: nil)
        #expect(storage.services(for: source(), identity: .testing("weather")).responseCache == nil)
        let finished = storage.finishAll(report(.ok, items: ["a"]), newOnly: true)
        #expect(finished.report.sources.first?.items.count == 1)
        #expect(finished.notes.first?.contains("no item history") == true)
    }

    @Test("ages read as people say them", arguments: [
        (12.0 as Double, "12 s"), (60, "1 min"), (3599, "59 min"), (3600, "1 h"), (7500, "2 h 5 min"), (86_400 * 2 + 3600 * 4, "2 d 4 h"),
    ] as [(Double, String)])
    func ages(seconds: Double, text: String) {
        #expect(RunStorage.describeAge(seconds) == text)
    }

    @Test("cache stats and clear read as a table and a sentence")
    func storeReport() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let stats = [StoreMaintenance.SourceStats(
            sourceID: "weather", responses: 3, freshResponses: 2, bytes: 2048, oldestResponse: now.addingTimeInterval(-600),
            newestResponse: now.addingTimeInterval(-60), snapshotItems: 3, snapshotSavedAt: now.addingTimeInterval(-60), historyItems: 7)]
        let rows = StoreReport.statsRows(stats, now: now)
        #expect(rows[0].first == "SOURCE")
        #expect(rows[1] == ["weather", "3", "2", "2.0 KiB", "1 min ago", "3 items, 1 min ago", "7 items"])
        var removed = StoreMaintenance.Removed()
        removed.responses = 3
        removed.snapshots = 1
        #expect(StoreReport.cleared(removed, cache: true, sourceID: "weather")
            == "removed 3 stored responses and 1 last good copy of source weather")
    }
}

extension RunStorage {
    /// The store's part for every source of a finished report, one source after another (as the engine
    /// applies it to each held source when it finishes).
    func finishAll(_ report: AggregateReport, query: String? = nil, newOnly: Bool = false) -> Outcome {
        var notes: [String] = []
        var finished = report
        for index in finished.sources.indices {
            // As StreamingRun does for a held source: the cache's part, then the history's.
            let served = applyCache(to: finished.sources[index], query: query, notes: &notes)
            finished.sources[index] = applyHistory(to: served, newOnly: newOnly, notes: &notes)
        }
        return Outcome(report: finished, notes: notes)
    }
}

extension SourceIdentity {
    /// An identity for tests: the id and a fingerprint derived from it.
    static func testing(_ id: String) -> SourceIdentity { SourceIdentity(id: id, fingerprint: "fp-\(id)") }
}

/// A live client factory that must never be asked: `--offline` sends nothing.
private struct NoNetwork: HTTPClientFactory {
    func makeClient(_ configuration: HTTPClientConfiguration) -> any HTTPFetching {
        Issue.record("a live client was made under --offline")
        return Sent()
    }

    struct Sent: HTTPFetching {
        func fetch(
            _ request: HTTPRequest, cancellation: CancellationToken,
            completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
        ) {
            completion(.failure(SourceError(.network, "sent")))
        }
    }
}
