import Domain
import Foundation

/// When each source of `aggregate watch` runs next: a state machine driven by the times and outcomes it is
/// given, with no clock or thread of its own (the `Watcher` feeds it; tests drive it directly).
///
/// - The first cycle is spread: each source starts at a random moment within `firstCycleSpread` of its own
///   interval (at most `maxFirstCycleSpread`), so fifty sources do not fire at once.
/// - After a success the next run is one interval later, or later still when the service said its data stays
///   fresh longer (`refreshNotBefore`: `Cache-Control: max-age`).
/// - After a failure (error, timeout, a stale copy) the wait doubles per consecutive failure from the interval,
///   with ±`jitter`, capped at `maxBackoff`, and never before the service's `Retry-After` or rate-limit reset.
///   A success returns the source to its interval.
/// - A source runs at most once at a time: while it runs it is not due.
struct WatchSchedule: Sendable {
    struct Entry: Sendable, Hashable {
        var id: String
        var interval: TimeInterval
        var next: Date
        var failures = 0
        var isRunning = false
        /// When it last finished and how (for the view).
        var lastFinished: Date?
    }

    static let maxBackoff: TimeInterval = 3600
    static let jitter = 0.2
    static let firstCycleSpread = 0.1
    static let maxFirstCycleSpread: TimeInterval = 5

    private(set) var entries: [Entry]

    /// - Parameter sources: each source's id and refresh interval, in manifest order.
    init(sources: [(id: String, interval: TimeInterval)], now: Date, random: inout some RandomNumberGenerator) {
        entries = sources.map { source in
            let spread = min(source.interval * Self.firstCycleSpread, Self.maxFirstCycleSpread)
            return Entry(id: source.id, interval: source.interval, next: now.addingTimeInterval(Double.random(in: 0...spread, using: &random)))
        }
    }

    func entry(_ id: String) -> Entry? { entries.first { $0.id == id } }

    /// The sources due at `now`, in manifest order, now marked running.
    mutating func takeDue(at now: Date) -> [String] {
        var due: [String] = []
        for index in entries.indices where !entries[index].isRunning && entries[index].next <= now {
            entries[index].isRunning = true
            due.append(entries[index].id)
        }
        return due
    }

    /// When the next source falls due (nil when every source is running).
    var nextWake: Date? {
        entries.filter { !$0.isRunning }.map(\.next).min()
    }

    /// Records how a run of `id` ended and schedules its next one.
    mutating func finished(_ id: String, report: SourceReport, at now: Date, random: inout some RandomNumberGenerator) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        var entry = entries[index]
        entry.isRunning = false
        entry.lastFinished = now
        (entry.next, entry.failures) = Self.nextRun(
            after: report, interval: entry.interval, failures: entry.failures, at: now, random: &random)
        entries[index] = entry
    }

    /// When a source that ran every `interval` and had failed `failures` times in a row runs next, after a run
    /// that ended at `now` with `report`, and its new count of failures: the policy above, shared by the fleet's
    /// workers (`FleetWorker`).
    static func nextRun(
        after report: SourceReport, interval: TimeInterval, failures: Int, at now: Date,
        random: inout some RandomNumberGenerator
    ) -> (next: Date, failures: Int) {
        let succeeded = report.status == .ok || report.status == .skipped
        var wait: TimeInterval
        let failures = succeeded ? 0 : failures + 1
        if succeeded {
            wait = interval
        } else {
            let doubled = interval * pow(2, Double(min(failures - 1, 20)))
            wait = min(doubled, maxBackoff) * Double.random(in: (1 - jitter)...(1 + jitter), using: &random)
            wait = max(wait, min(interval, maxBackoff))  // never sooner than the schedule after a failure
        }
        var next = now.addingTimeInterval(wait)
        for floor in [report.refreshNotBefore, report.error?.retryAt].compactMap({ $0 }) where floor > next {
            next = floor
        }
        return (next, failures)
    }

    /// `r`: every source not running now falls due now.
    mutating func refreshAll(at now: Date) {
        for index in entries.indices where !entries[index].isRunning {
            entries[index].next = now
        }
    }

    /// A refresh of one source asked for now (`POST /api/sources/{id}/refresh`): due now unless it is running.
    /// Returns false for an id the schedule does not know.
    mutating func refresh(_ id: String, at now: Date) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        if !entries[index].isRunning { entries[index].next = now }
        return true
    }

    /// A reloaded manifest: kept sources keep their state (with the new interval from their next run on),
    /// new ones start within the first-cycle spread, removed ones go.
    mutating func replaceSources(
        with sources: [(id: String, interval: TimeInterval)], now: Date, random: inout some RandomNumberGenerator
    ) {
        let fresh = WatchSchedule(sources: sources, now: now, random: &random)
        entries = fresh.entries.map { new in
            guard var kept = entry(new.id) else { return new }
            kept.interval = new.interval
            return kept
        }
    }
}
