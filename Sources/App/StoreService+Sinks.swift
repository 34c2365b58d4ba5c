import Domain
import Foundation

/// `aggregate sinks status|retry|drop`: the outbox as people see it. No manifest is needed: the store
/// knows every sink that has deliveries.
extension StoreService {
    /// Per sink: a header row, then pending, failed and delivered counts and the oldest pending delivery's age.
    public func sinkCountRows(now: Date = Date()) throws(SourceError) -> [[String]] {
        [["SINK", "PENDING", "FAILED", "DELIVERED", "OLDEST PENDING"]] + (try outbox.counts()).map { counts in
            [counts.sink, String(counts.pending), String(counts.failed), String(counts.delivered),
             counts.oldestPending.map { RunStorage.describeAge(now.timeIntervalSince($0)) + " ago" } ?? "-"]
        }
    }

    /// The deliveries not yet delivered, oldest first, as rows with a header: what `retry` and `drop` take.
    public func undeliveredRows(now: Date = Date()) throws(SourceError) -> [[String]] {
        let rows = try outbox.undelivered().map { delivery in
            [delivery.id, delivery.sink, delivery.state.rawValue, String(delivery.itemCount), String(delivery.attempts),
             RunStorage.describeAge(now.timeIntervalSince(delivery.createdAt)) + " ago", delivery.lastError ?? "-"]
        }
        return rows.isEmpty ? [] : [["DELIVERY", "SINK", "STATE", "ITEMS", "ATTEMPTS", "QUEUED", "LAST ERROR"]] + rows
    }

    /// The undelivered deliveries `id` names (a delivery id, or a sink id for all of its own).
    public func undeliveredDeliveries(matching id: String) throws(SourceError) -> [SinkDeliverySummary] {
        try outbox.undelivered(matching: id)
    }

    /// Makes what `id` names due again; returns the sentence to print.
    public func retryDeliveries(_ id: String) throws(SourceError) -> String {
        let count = try outbox.retry(id)
        return count == 0
            ? "No undelivered delivery matches '\(id)'."
            : "\(count) \(count == 1 ? "delivery is" : "deliveries are") due again: the next run or watch cycle sends "
                + "\(count == 1 ? "it" : "them"), oldest first."
    }

    /// Removes what `id` names from the outbox; returns the sentence to print.
    public func dropDeliveries(_ id: String) throws(SourceError) -> String {
        let count = try outbox.drop(id)
        return "Dropped \(count) \(count == 1 ? "delivery" : "deliveries"); \(count == 1 ? "it is" : "they are") never sent."
    }
}
