import Domain
import Foundation
import Synchronization

/// Which items of a source's finished cycle are new: the engine's one answer (`ItemNewness`), which every front
/// end reads (the watch screen's marks, serve's `item` events) and none derives again.
public struct NewItems: Sendable, Hashable {
    /// The ids of the cycle's items never seen before: by the store's item history when the run could ask it
    /// (so each item once, across restarts and processes sharing the store, even when it leaves the source and
    /// comes back); else (no store, or it failed) those not in the source's previous result in this process.
    public var ids: Set<String>
    /// Nothing was known of the source before this cycle: the history had nothing of it (its first run ever;
    /// without a history, its first cycle in this process), and this process had not finished a cycle of it.
    /// Then `ids` is its whole result: each item once for a stream of events, but nothing to mark.
    public var isFirstSight: Bool

    public init(ids: Set<String>, isFirstSight: Bool) {
        self.ids = ids
        self.isFirstSight = isFirstSight
    }

    /// What a view marks new ("+", "N new"): `ids`, and none on a first sight.
    public var marked: Set<String> { isFirstSight ? [] : ids }

    /// No item is new (a failed cycle; a watch that delivers only new items, which are the new ones).
    public static let none = NewItems(ids: [], isFirstSight: false)
}

/// Answers `NewItems` for each finished cycle of a watch (`Watcher`) or of a fleet as followed
/// (`FleetFollower`): the item history's answer when the run asked it (`RunOutcome.newItemIDs`,
/// `FleetReport.newItemIDs`), else a memory of each source's latest result kept here, in one place.
///
/// Memory is bounded by the sources' results, whatever the watch's length: per source the ids of its latest
/// result (kept with a history too, so that a cycle whose history failed compares with the cycle before); a
/// source a reload removed is forgotten.
final class ItemNewness: Sendable {
    private let latest = Mutex<[String: Set<String>]>([:])

    /// The news of `report`'s cycle.
    /// - Parameters:
    ///   - history: the ids the item history never saw before; nil when there was no history to ask.
    ///   - firstRun: the history had nothing of the source before this cycle.
    func news(of report: SourceReport, history: Set<String>?, firstRun: Bool) -> NewItems {
        // A failed cycle delivers nothing new and forgets nothing (a stale copy has the items of before).
        guard report.status == .ok || report.status == .stale || !report.items.isEmpty else { return .none }
        let ids = Set(report.items.lazy.map(\.id))
        let previous = latest.withLock { latest in
            defer { latest[report.id] = ids }
            return latest[report.id]
        }
        guard let history else {
            return NewItems(ids: previous.map { ids.subtracting($0) } ?? ids, isFirstSight: previous == nil)
        }
        // Items a run's `--since` or `--dedupe` left out were seen, not shown: no news of the result.
        return NewItems(ids: history.intersection(ids), isFirstSight: firstRun && previous == nil)
    }

    /// After a reload: only these sources are remembered.
    func keep(only ids: [String]) {
        let kept = Set(ids)
        latest.withLock { latest in latest = latest.filter { kept.contains($0.key) } }
    }
}
