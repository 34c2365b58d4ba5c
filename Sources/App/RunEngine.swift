import Domain
import Foundation
import ProviderKit
import SQLiteStore
import Synchronization

/// What one run is asked to do: the command line's choices, whatever front end made them.
public struct RunRequest: Sendable, Hashable {
    /// `--sources`: ids to run (a named source runs even when disabled); nil runs every enabled source.
    public var selection: [String]?
    /// `--query`, for the selected sources whose provider accepts one.
    public var query: String?
    /// `--deadline`: the whole run's time.
    public var deadlineSeconds: Double?
    /// `--offline` / `--no-cache`.
    public var cacheMode: CacheMode
    /// `--new`: only items each source never delivered before.
    public var newOnly: Bool
    /// `--store-optional`: a shared store that cannot be reached is a warning, and the run goes on without it.
    public var storeOptional: Bool
    /// Every item is kept, and the outcome names those the item history never saw before
    /// (`RunOutcome.newItemIDs`): how serve announces each item once. Ignored with `newOnly`.
    public var markNew: Bool = false
    /// The selected sources are claimed by this process (a fleet worker, `FleetWorker`): no other process runs
    /// them now, so their fetches take no lease on the shared response cache (one connection and two round
    /// trips less per request).
    public var claimed: Bool = false

    public init(
        selection: [String]? = nil, query: String? = nil, deadlineSeconds: Double? = nil, cacheMode: CacheMode = .normal,
        newOnly: Bool = false, storeOptional: Bool = false
    ) {
        self.storeOptional = storeOptional
        self.selection = selection
        self.query = query
        self.deadlineSeconds = deadlineSeconds
        self.cacheMode = cacheMode
        self.newOnly = newOnly
    }
}

/// A finished run.
public struct RunOutcome: Sendable {
    /// Every source in manifest order, after the store's part (cache status, last good copies, `--new`).
    public var report: AggregateReport
    /// Notes for people about single sources ("weather: first run with --new: …"), one line each.
    public var notes: [String]
    /// Problems of the run as a whole (the store was damaged and replaced, a proxy variable is unreadable),
    /// one line each.
    public var warnings: [String]
    /// What each of the manifest's sinks queued and delivered after the run, in manifest order (empty without
    /// sinks, and for an interrupted run). Its failures never change the sources' results.
    public var sinks: [SinkReport] = []
    /// With `RunRequest.markNew`: per source, the ids of its items that the item history never saw before; a
    /// source is missing when there was no history to ask (no store, or it failed).
    public var newItemIDs: [String: Set<String>] = [:]
    /// With `RunRequest.markNew`: the sources whose item history was empty before this run (their first run
    /// ever): all their items are in `newItemIDs`, with nothing before to be new against (`NewItems`).
    public var firstRunIDs: Set<String> = []
}

// MARK: - The run engine

/// Runs the sources a request selects, concurrently, applies the store's part to each as it finishes and hands
/// their items to a `RunOutput`; then the manifest's sinks queue and send what is new for them: the one entry
/// point of every front end (the one-shot CLI, watch, serve, a fleet worker, `check-source`). Callable many times
/// in one process and from several threads at once; each run plans and builds its sources anew.
public struct RunEngine: Sendable {
    private let container: AppDIContainer

    init(container: AppDIContainer) {
        self.container = container
    }

    /// - Parameters:
    ///   - cancellation: ends the run early (Ctrl-C): sources still loading are reported `timeout` and
    ///     stopped, and `completion` still comes once what they started is gone.
    ///   - observer: told of progress as it happens (live views).
    ///   - output: where the items go (by default, into the reports).
    ///   - completion: called once, on no particular thread.
    /// - Throws: a selection that does not fit the manifest (nothing runs then).
    public func run(
        _ request: RunRequest, cancellation: CancellationToken? = nil, observer: (any AggregateObserver)? = nil,
        output: any RunOutput = CollectedOutput(), completion: @escaping @Sendable (RunOutcome) -> Void
    ) throws(SelectionError) {
        let store = container.store
        let (opened, storeWarnings) = store.open()
        if opened == nil, store.location.isShared, !request.storeOptional {
            throw .storeUnavailable(storeWarnings.first ?? "the store cannot be used")
        }
        // A proxy variable that cannot be read is ignored, and said so without its value (it may hold a password).
        let warnings = storeWarnings + container.liveHTTPProblems
        let storage = RunStorage(store: opened, mode: request.cacheMode, claimed: request.claimed)
        let plan = try container.plan(selection: request.selection, query: request.query, storage: storage)
        let manifest = container.manifest
        let offer = manifest.sinks.isEmpty ? nil : SinkOffer(sources: plan.map(\.descriptor.id), sinks: manifest.sinks)
        let items = StreamingRun(
            sources: plan.map(\.descriptor), storage: storage, query: request.query, newOnly: request.newOnly,
            markNew: request.markNew, filters: plan.map { manifest.source(id: $0.descriptor.id)?.itemFilter },
            offer: offer, output: output)
        AggregateSourcesUseCase().execute(
            plan, deadlineSeconds: request.deadlineSeconds, cancellation: cancellation, observer: observer, stream: items,
            admission: container.loadingSlots
        ) { loaded in
            items.outcome(loaded) { finished in
                let outcome = RunOutcome(
                    report: output.finish(run: finished.report), notes: finished.notes, warnings: warnings,
                    newItemIDs: finished.newItemIDs, firstRunIDs: finished.firstRunIDs)
                // An interrupted run offers nothing: what its sources delivered is partial, and it must end now.
                guard let offer, cancellation?.isCancelled != true else { return completion(outcome) }
                offer.deliver(
                    outbox: opened?.outbox, directory: container.sinkDirectory, storeKey: store.location.displayName,
                    send: request.cacheMode != .offline, cancellation: cancellation ?? CancellationToken()
                ) { sinks in
                    var delivered = outcome
                    delivered.sinks = sinks
                    completion(delivered)
                }
            }
        }
    }

    /// `run`, suspending until it is done (callers in Swift concurrency): no thread is blocked.
    public func run(
        _ request: RunRequest, cancellation: CancellationToken? = nil, observer: (any AggregateObserver)? = nil,
        output: any RunOutput = CollectedOutput()
    ) async throws(SelectionError) -> RunOutcome {
        // Planning throws before anything starts, so the continuation is resumed exactly once either way. The
        // start (opening the store may wait for another process) runs on a thread of its own, off the pool.
        let result: Result<RunOutcome, SelectionError> = await withCheckedContinuation { continuation in
            let start = Thread {
                do throws(SelectionError) {
                    try run(request, cancellation: cancellation, observer: observer, output: output) {
                        continuation.resume(returning: .success($0))
                    }
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            start.name = "aggregate.run"
            start.start()
        }
        return try result.get()
    }

    /// `run`, waiting for it on the calling thread: for the command line's main thread only, never a thread of
    /// the shared pool (the run's sources and timers need those).
    public func runAndWait(
        _ request: RunRequest, cancellation: CancellationToken? = nil, observer: (any AggregateObserver)? = nil,
        output: any RunOutput = CollectedOutput()
    ) throws(SelectionError) -> RunOutcome {
        let done = DispatchGroup()
        let outcome = Mutex<RunOutcome?>(nil)
        done.enter()
        try run(request, cancellation: cancellation, observer: observer, output: output) { finished in
            outcome.withLock { $0 = finished }
            done.leave()
        }
        done.wait()
        return outcome.withLock { $0! }
    }
}

extension AppDIContainer {
    /// The run engine of this container's manifest and store.
    public var engine: RunEngine { RunEngine(container: self) }
}
