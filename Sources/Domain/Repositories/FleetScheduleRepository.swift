import Foundation

/// When each source of a fleet is next due and which worker holds it: the schedule every `aggregate worker` on
/// one shared store takes its work from, so that each source is fetched and parsed once per interval however
/// many workers there are. There is no scheduler process: a worker claims due sources itself, a claim expires
/// unless renewed (a dead worker's sources go to another), and finishing a source schedules its next run.
///
/// Times are the store's clock, so machines whose clocks disagree still agree on what is due.
public protocol FleetScheduleRepository: Sendable {
    /// Makes `manifest` the fleet's when the fleet has none, it is the same, or `adopt` is set; otherwise tells
    /// how the fleet's differs (nothing changes then but the worker's entry, which says its manifest differs).
    /// Sources kept keep their schedule; new ones are due now.
    func register(_ manifest: FleetManifest, worker: String, adopt: Bool) throws(SourceError) -> FleetRegistration

    /// Claims up to `limit` due sources that nobody holds (or whose holder's claim expired) for `holdSeconds`,
    /// the longest overdue first, while the fleet's manifest is still at `generation` (a worker never claims a
    /// source of a manifest it has not read). Concurrent callers never get the same source.
    /// - Returns: the claims, and the fleet's manifest's generation now.
    func claim(
        worker: String, limit: Int, holdSeconds: Double, generation: Int
    ) throws(SourceError) -> (claims: [FleetClaim], generation: Int)

    /// Extends `worker`'s claims on `holding` by `holdSeconds` from now and notes that the worker is alive.
    /// Any other claim the store says `worker` holds is given back, due as it was: a claim whose answer never
    /// reached the worker (the connection was cut after the store committed it) is not held until it expires.
    /// Returns how many of `holding` it still holds, and the generation of the fleet's manifest (another worker
    /// may have adopted a new one since).
    @discardableResult
    func renew(worker: String, holding: [String], holdSeconds: Double) throws(SourceError) -> (held: Int, generation: Int)

    /// Ends `worker`'s claims on these sources and schedules each one's next run. A source whose claim expired
    /// and went to another worker is left to that worker. Telling it again is harmless: a source already
    /// finished is no longer held.
    /// - Returns: how many of `results` were still held by `worker` (the others were taken over).
    @discardableResult
    func complete(worker: String, results: [FleetRunResult]) throws(SourceError) -> Int

    /// Gives back every claim `worker` still holds, due as they were (a worker that stops).
    func release(worker: String) throws(SourceError)

    /// The fleet as the store sees it (`aggregate fleet status`).
    func status(recentSeconds: Double) throws(SourceError) -> FleetStatus

    /// Makes source `id` due now for the whole fleet (a refresh asked of a server); a worker holding it keeps
    /// its run. Returns false when the fleet has no such source.
    func makeDue(_ id: String) throws(SourceError) -> Bool
}

/// The sources of the manifest a worker runs: what the fleet schedules.
public struct FleetManifest: Sendable, Hashable {
    /// One source of the manifest, as the fleet schedules it.
    public struct Source: Sendable, Hashable {
        /// The source's manifest id.
        public var id: String
        /// The stored identity's fingerprint (a changed source is due again at once).
        public var fingerprint: String
        /// How often it runs, in seconds.
        public var intervalSeconds: Double

        /// A source with its id, fingerprint and interval.
        public init(id: String, fingerprint: String, intervalSeconds: Double) {
            self.id = id
            self.fingerprint = fingerprint
            self.intervalSeconds = intervalSeconds
        }
    }

    /// Every source the worker runs.
    public var sources: [Source]

    /// A manifest of `sources`.
    public init(sources: [Source]) {
        self.sources = sources
    }
}

/// What registering a manifest found.
public enum FleetRegistration: Sendable, Hashable {
    /// The manifest is the fleet's (it was already, or it is now), in this generation: a number that grows
    /// each time the fleet's manifest changes.
    case registered(added: Int, removed: Int, changed: Int, generation: Int)
    /// The fleet runs another manifest: the ids only this one has, only the fleet's has, and those both have
    /// with other options or interval.
    case differs(onlyHere: [String], onlyInFleet: [String], changed: [String])
}

/// A source a worker holds.
public struct FleetClaim: Sendable, Hashable {
    /// The source's manifest id.
    public var id: String
    /// Its failed runs in a row before this one (the backoff's count).
    public var failures: Int
    /// How late it is: the store's now minus when it fell due.
    public var lagSeconds: Double
    /// Its interval as the fleet's manifest registered it (the next run's distance after a success).
    public var intervalSeconds: Double

    /// A claim, as the store hands it out.
    public init(id: String, failures: Int, lagSeconds: Double, intervalSeconds: Double) {
        self.id = id
        self.failures = failures
        self.lagSeconds = lagSeconds
        self.intervalSeconds = intervalSeconds
    }
}

/// How a claimed source's run ended, and when it is due again.
public struct FleetRunResult: Sendable, Hashable {
    /// The source's manifest id.
    public var id: String
    /// How its run ended.
    public var status: SourceStatus
    /// Its failed runs in a row, this one included (0 after a success).
    public var failures: Int
    /// From the store's now.
    public var nextInSeconds: Double

    /// A result for source `id`.
    public init(id: String, status: SourceStatus, failures: Int, nextInSeconds: Double) {
        self.id = id
        self.status = status
        self.failures = failures
        self.nextInSeconds = nextInSeconds
    }
}

/// The fleet's state.
public struct FleetStatus: Sendable, Hashable {
    /// A worker that registered with the fleet.
    public struct Worker: Sendable, Hashable {
        /// The worker's id.
        public var id: String
        /// When the store last heard from it.
        public var lastSeen: Date
        /// How many sources it holds now.
        public var holding: Int
        /// Its manifest is not the fleet's: it claims nothing until it is.
        public var manifestDiffers: Bool

        /// A worker as the store lists it.
        public init(id: String, lastSeen: Date, holding: Int, manifestDiffers: Bool = false) {
            self.id = id
            self.lastSeen = lastSeen
            self.holding = holding
            self.manifestDiffers = manifestDiffers
        }
    }

    /// A source due and not held: which one, and since when.
    public struct DueSource: Sendable, Hashable {
        /// The source's manifest id.
        public var id: String
        /// When it fell due.
        public var since: Date

        /// Source `id`, due since `since`.
        public init(id: String, since: Date) {
            self.id = id
            self.since = since
        }
    }

    /// How many sources the fleet's manifest has.
    public var sources: Int
    /// Due now and not held.
    public var due: Int
    /// Due more than one interval ago and not held.
    public var overdue: Int
    /// Held by a worker now.
    public var held: Int
    /// The source due longest ago.
    public var oldestDue: DueSource?
    /// Workers seen within the asked window, most recent first.
    public var workers: [Worker]

    /// A status as the store counts it.
    public init(sources: Int, due: Int, overdue: Int, held: Int, oldestDue: DueSource?, workers: [Worker]) {
        self.sources = sources
        self.due = due
        self.overdue = overdue
        self.held = held
        self.oldestDue = oldestDue
        self.workers = workers
    }
}
