import Domain
import Foundation

/// The dashboard's header: how many sources are in each state, how many items there are and how many are new,
/// and how old the oldest successful refresh is (the source most out of date).
public struct DashboardSummary: Sendable, Hashable {
    public var sources = 0
    public var byStatus: [DashboardStatus: Int] = [:]
    public var running = 0
    public var items = 0
    /// Items new to the store's history in the last hour (the server counts them as it announces them).
    public var newLastHour: Int
    /// The least recent of the sources' last successful refreshes, and whose it is.
    public var oldestSuccessID: String?
    public var oldestSuccessDate: Date?
    /// Sources that finished a cycle but never one that ended `ok` in this process.
    public var neverSucceeded = 0

    public init(_ sources: [WatchSourceState], newLastHour: Int) {
        self.newLastHour = newLastHour
        self.sources = sources.count
        for source in sources {
            byStatus[DashboardStatus(source), default: 0] += 1
            if source.isRunning { running += 1 }
            items += source.report?.itemCount ?? 0
            if let success = source.lastSuccessAt {
                if oldestSuccessDate.map({ success < $0 }) ?? true {
                    oldestSuccessID = source.id
                    oldestSuccessDate = success
                }
            } else if source.report != nil {
                neverSucceeded += 1
            }
        }
    }

    public func count(_ status: DashboardStatus) -> Int { byStatus[status] ?? 0 }

    public var failing: Int { count(.error) + count(.timeout) }
}
