import Foundation

/// The latest report of each of a fleet's sources, stored by the worker that ran it: what `aggregate serve
/// --no-worker` answers from, so that any number of servers show what the workers did without running a
/// source themselves.
///
/// Each stored report has a version that grows with every report stored, whoever stored it: a reader asks
/// which sources changed lately and reads only those.
public protocol FleetReportRepository: Sendable {
    /// Stores each report as its source's latest (one round trip for a batch).
    func publish(_ reports: [FleetReport]) throws(SourceError)

    /// Each source's report version, of the reports stored within the last `seconds` (every source when nil).
    func versions(storedWithinSeconds seconds: Double?) throws(SourceError) -> [String: Int64]

    /// The latest reports of these sources (those that have one), each with its version.
    func reports(of ids: [String]) throws(SourceError) -> [FleetReport]
}

/// A source's run as a worker finished it.
public struct FleetReport: Sendable, Hashable {
    /// The source's report. As stored, it carries only its new items (what a server announces); the others are
    /// in the store's item archive, counted in `streamedItemCount` and listed in `itemIDs`.
    public var report: SourceReport
    /// The ids of every item of the run, in its order.
    public var itemIDs: [String]
    /// The ids of its items that the store's item history never saw before (nil: the history could not tell).
    public var newItemIDs: Set<String>?
    /// When the run finished, by the worker's clock (what a server shows as the source's last refresh).
    public var finishedAt: Date
    /// When the source is due again.
    public var next: Date
    /// Set by the store when read.
    public var version: Int64

    /// A report as a worker stores it; the store sets `version` when read.
    public init(
        report: SourceReport, itemIDs: [String]? = nil, newItemIDs: Set<String>?, finishedAt: Date, next: Date, version: Int64 = 0
    ) {
        self.report = report
        self.itemIDs = itemIDs ?? report.items.map(\.id)
        self.newItemIDs = newItemIDs
        self.finishedAt = finishedAt
        self.next = next
        self.version = version
    }
}
