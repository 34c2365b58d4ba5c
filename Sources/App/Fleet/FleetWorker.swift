import Domain
import Foundation
import Synchronization

/// `aggregate worker`: one member of a fleet that shares a PostgreSQL store. It claims due sources in batches
/// (`FleetScheduleRepository`), runs each batch through the run engine (cache, history, sinks and their
/// outbox, as any run), and schedules each source's next run by the watch's policy (`WatchSchedule.nextRun`).
/// No worker is special: any number run at once, each source runs once per interval between them, and the
/// sources of a worker that dies are claimed by another when its claims expire.
///
/// The store is called from one thread of the worker's own (claims, renewals, completions); runs go on the
/// engine's threads and hand their outcomes over.
public final class FleetWorker: Sendable {
    public struct Options: Sendable {
        /// Claim and run until nothing is due, then end (cron, tests).
        public var once: Bool
        /// Sources claimed at a time: one engine run each.
        public var batchSize: Int
        /// Runs at once.
        public var batchesInFlight: Int
        /// How long a claim lasts without renewal: how long a dead worker's sources wait for another worker.
        public var holdSeconds: Double
        /// How long to wait before asking again when nothing is due.
        public var idleSeconds: Double
        /// Make this manifest the fleet's even when the fleet runs another.
        public var adoptManifest: Bool
        /// Reads this worker's manifest again (nil when it cannot be read): called when another worker made a
        /// new manifest the fleet's, so that a worker whose file was updated too follows without a restart.
        public var reload: (@Sendable () -> AppDIContainer?)?

        public init(
            once: Bool = false, batchSize: Int = 50, batchesInFlight: Int = 4, holdSeconds: Double = 120,
            idleSeconds: Double = 5, adoptManifest: Bool = false, reload: (@Sendable () -> AppDIContainer?)? = nil
        ) {
            self.reload = reload
            self.once = once
            self.batchSize = batchSize
            self.batchesInFlight = batchesInFlight
            self.holdSeconds = holdSeconds
            self.idleSeconds = idleSeconds
            self.adoptManifest = adoptManifest
        }
    }

    /// What a worker did, when it ends.
    public struct Summary: Sendable, Hashable {
        public var runs = 0
        public var sources = 0
        public var byStatus: [SourceStatus: Int] = [:]
        /// The longest a claimed source had been due.
        public var maxLagSeconds = 0.0
    }

    struct Batch: Sendable {
        var claims: [String: FleetClaim]
        var outcome: RunOutcome?
    }

    struct State {
        /// The manifest the worker runs (replaced when it follows or adopts another).
        var container: AppDIContainer
        /// The generation of the fleet's manifest that `container` matches.
        var generation = 0
        /// Why the worker claims nothing now: its manifest is not the fleet's.
        var paused: String?
        /// SIGHUP: a manifest to make the fleet's.
        var adopting: AppDIContainer?
        var finished: [Batch] = []
        /// The sources this worker claimed and has not yet told the store it finished: what it renews.
        var held: Set<String> = []
        var inFlight = 0
        var stopping = false
        var summary = Summary()
        var random = SystemRandomNumberGenerator()
    }

    /// Names this worker in the store: host, process and a random part (a pid can come back).
    public let id: String
    let options: Options
    let observers: [any FleetObserver]
    let state: Mutex<State>
    let wake = DispatchSemaphore(value: 0)
    /// What renewals, idle waits and due times are measured on.
    private let clock: any TimerClock
    private let done = DispatchSemaphore(value: 0)
    /// Cancels the runs in flight when stopped (their sources are given back, due as they were).
    private let cancellation = CancellationToken()
    /// Keeps the archive's retention in the background (after runs, at most every few hours).
    private let upkeep = ArchiveUpkeep()

    public init(
        container: AppDIContainer, options: Options, observers: [any FleetObserver] = [],
        clock: any TimerClock = SystemClock()
    ) {
        state = Mutex(State(container: container))
        self.clock = clock
        self.options = options
        self.observers = observers
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "host"
        id = "\(host)-\(getpid())-\(String(UInt16.random(in: 0...UInt16.max), radix: 16))"
    }

    /// Opens the store and registers the manifest (blocks: call it from a thread that may wait), then starts
    /// claiming on a thread of its own.
    public func start() throws(FleetError) -> FleetRegistration {
        let container = state.withLock { $0.container }
        guard container.store.location.isShared else { throw .needsSharedStore }
        let (opened, warnings) = container.store.open()
        guard let schedule = opened?.fleet, let reports = opened?.fleetReports else {
            throw .storeUnavailable(warnings.first ?? "the store cannot be used")
        }
        let registration: FleetRegistration
        do throws(SourceError) {
            registration = try schedule.register(Self.manifest(of: container), worker: id, adopt: options.adoptManifest)
        } catch {
            throw .storeUnavailable("the store cannot be used: \(error.message)")
        }
        switch registration {
        case .differs(let here, let fleet, let changed):
            throw .manifestDiffers(onlyHere: here, onlyInFleet: fleet, changed: changed)
        case .registered(_, _, _, let generation):
            state.withLock { $0.generation = generation }
        }
        let loop = Thread { [self] in claimLoop(schedule, reports: reports) }
        loop.name = "aggregate.worker"
        loop.start()
        return registration
    }

    /// SIGTERM: no more claims; the runs in flight are cancelled and their sources given back. `wait` returns
    /// once that is done.
    public func stop() {
        state.withLock { $0.stopping = true }
        cancellation.cancel()
        wake.signal()
    }

    /// Waits until the worker ended (`--once`: nothing left due; otherwise `stop`).
    public func wait() -> Summary {
        done.wait()
        return state.withLock { $0.summary }
    }

    // MARK: - The loop (its own thread: every store call blocks)

    private func claimLoop(_ schedule: any FleetScheduleRepository, reports: any FleetReportRepository) {
        var lastRenewal = clock.now
        var problem: String?
        /// Finished runs the store has not been told of (it could not be reached): told again on every turn,
        /// their claims renewed meanwhile, so that a restarted store neither runs them again nor loses them.
        var pending: [FleetRunResult] = []
        /// Reports of finished runs not yet stored, kept likewise (the fleet's servers show the one before until then).
        var unpublished: [FleetReport] = []
        func report(_ error: SourceError) {
            if problem != error.message { tell { $0.fleet(problem: error.message) } }
            problem = error.message
        }
        func answered() {
            if problem != nil { tell { $0.fleet(problem: "the store answers again") } }
            problem = nil
        }
        while true {
            let (finished, stopping, inFlight) = state.withLock { state in
                defer { state.finished = [] }
                return (state.finished, state.stopping, state.inFlight)
            }
            let ended = finished.map { self.results(of: $0, stopping: stopping) }
            pending += ended.flatMap(\.results)
            unpublished += ended.flatMap(\.reports)
            if !pending.isEmpty || !unpublished.isEmpty {
                do throws(SourceError) {
                    if !pending.isEmpty {
                        let completed = try schedule.complete(worker: id, results: pending)
                        let ids = pending.map(\.id)
                        state.withLock { state in state.held.subtract(ids) }
                        if completed < pending.count { tell { $0.fleet(takenOver: pending.count - completed) } }
                        pending = []
                    }
                    // After the schedule: a report never names a run the schedule does not know finished.
                    try reports.publish(unpublished)
                    unpublished = []
                    answered()
                } catch {
                    report(error)
                }
            }
            if stopping, inFlight == 0 {
                // Results the store could not be told of are left to expire: another worker runs them again.
                try? schedule.release(worker: id)
                break
            }
            adoptIfAsked(schedule)
            let paused = state.withLock { $0.paused != nil }
            if paused, options.once { break }
            var idle = paused
            if !stopping, !paused, inFlight < options.batchesInFlight {
                do throws(SourceError) {
                    let known = state.withLock { $0.generation }
                    let (claims, generation) = try schedule.claim(
                        worker: id, limit: options.batchSize, holdSeconds: options.holdSeconds, generation: known)
                    answered()
                    if generation != known {
                        follow(generation: generation, schedule)
                        // Followed (or paused): claim again, or wait. A store that failed meanwhile: try later.
                        if state.withLock({ $0.generation }) == generation { continue }
                        idle = true
                    } else if !claims.isEmpty {
                        run(claims)
                        continue
                    } else {
                        if options.once, inFlight == 0 { break }
                        idle = true
                    }
                } catch {
                    report(error)
                    idle = true
                    // The store may have committed the claim without the answer reaching this worker: renew at
                    // the next turn, which gives back what it does not know it holds.
                    lastRenewal = .distantPast
                }
            }
            if clock.now.timeIntervalSince(lastRenewal) >= options.holdSeconds / 3 {
                do throws(SourceError) {
                    let holding = state.withLock { Array($0.held) }
                    let renewal = try schedule.renew(worker: id, holding: holding, holdSeconds: options.holdSeconds)
                    answered()
                    lastRenewal = clock.now
                    follow(generation: renewal.generation, schedule)
                } catch {
                    report(error)
                }
            }
            let renewalIn = max(0.05, options.holdSeconds / 3 - clock.now.timeIntervalSince(lastRenewal))
            clock.wait(for: wake, atMost: idle ? min(options.idleSeconds, renewalIn) : renewalIn)
        }
        done.signal()
    }

    private func run(_ claims: [FleetClaim]) {
        let batch = Dictionary(claims.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        tell { $0.fleet(didClaim: claims) }
        state.withLock { state in
            state.inFlight += 1
            state.held.formUnion(batch.keys)
            state.summary.runs += 1
            state.summary.maxLagSeconds = max(state.summary.maxLagSeconds, claims.map(\.lagSeconds).max() ?? 0)
        }
        let container = state.withLock { $0.container }
        let handOver: @Sendable (RunOutcome?) -> Void = { [self] outcome in
            state.withLock { state in
                state.inFlight -= 1
                state.finished.append(Batch(claims: batch, outcome: outcome))
            }
            wake.signal()
            upkeep.afterRun(in: container, now: Date())
        }
        var request = RunRequest(selection: claims.map(\.id))
        request.claimed = true
        request.markNew = true
        do throws(SelectionError) {
            // Collected, not streamed: the items go into the report the fleet's servers show.
            try container.engine.run(request, cancellation: cancellation, output: CollectedOutput(), completion: handOver)
        } catch {
            // Ids the fleet's manifest has and this one lacks (another worker adopted a new manifest since).
            tell { $0.fleet(problem: "a batch could not run: \(error.description)") }
            handOver(nil)
        }
    }

    /// When each source of a finished batch is due again, and the reports the fleet's servers show. A source
    /// this worker's own stop cut short is given back due as it was: that is no failure of the source.
    private func results(of batch: Batch, stopping: Bool) -> (results: [FleetRunResult], reports: [FleetReport]) {
        let now = clock.now
        guard let outcome = batch.outcome else {
            return (batch.claims.values.map {
                FleetRunResult(id: $0.id, status: .error, failures: $0.failures + 1, nextInSeconds: $0.intervalSeconds)
            }, [])
        }
        if !outcome.sinks.isEmpty { tell { $0.fleet(didDeliver: outcome.sinks) } }
        // Sources this worker's stop cut short go back as they were; the others are scheduled by the watch's policy
        // from the interval their claim carries (the fleet's manifest's). One lock for the batch; told after it.
        var results: [FleetRunResult] = []
        var finished: [(report: SourceReport, next: Date)] = []
        var gaveBack = 0
        // Items a sink could not queue (the store was away) are offered again by the source's next run: soon,
        // not an interval later, when a feed may have dropped them. Backed off, as a failure is.
        let unqueued = outcome.sinks.contains(where: \.unqueued)
        state.withLock { state in
            for report in outcome.report.sources {
                guard let claim = batch.claims[report.id] else { continue }
                if stopping, report.status == .timeout {
                    results.append(FleetRunResult(id: report.id, status: .timeout, failures: claim.failures, nextInSeconds: 0))
                    gaveBack += 1
                    continue
                }
                state.summary.sources += 1
                state.summary.byStatus[report.status, default: 0] += 1
                var (next, failures) = WatchSchedule.nextRun(
                    after: report, interval: claim.intervalSeconds, failures: claim.failures, at: now, random: &state.random)
                if unqueued, failures == 0 {
                    failures = claim.failures + 1
                    next = min(next, now.addingTimeInterval(Self.requeueSeconds * pow(2, Double(min(failures - 1, 10)))))
                }
                finished.append((report, next))
                results.append(FleetRunResult(
                    id: report.id, status: report.status, failures: failures, nextInSeconds: next.timeIntervalSince(now)))
            }
        }
        for (report, next) in finished { tell { $0.fleet(didFinish: report, next: next) } }
        if gaveBack > 0 { tell { $0.fleet(gaveBack: gaveBack) } }
        let reports = finished.map {
            FleetReport(report: $0.report, newItemIDs: outcome.newItemIDs[$0.report.id], finishedAt: now, next: $0.next)
        }
        return (results, reports)
    }

    /// The first wait before a source whose items a sink could not queue runs again (doubled each time after).
    static let requeueSeconds = 10.0

    /// Tells every observer, in order.
    func tell(_ event: (any FleetObserver) -> Void) {
        for observer in observers { event(observer) }
    }
}
