import Domain
import Foundation

/// Told what a worker does, as it happens (the command line's stderr lines and summary).
public protocol FleetObserver: Sendable {
    /// A run of the fleet's sources finished; `next` is when it is due again (by this machine's clock).
    func fleet(didFinish report: SourceReport, next: Date)
    /// What the manifest's sinks queued and delivered after one batch.
    func fleet(didDeliver sinks: [SinkReport])
    /// A problem with the store (the worker keeps trying: claims not renewed expire, and nothing is lost).
    func fleet(problem: String)
    /// The worker claimed these sources (one batch).
    func fleet(didClaim claims: [FleetClaim])
    /// Sources the worker gave back unrun, due as they were (its stop cut their runs short).
    func fleet(gaveBack count: Int)
    /// Sources the worker ran whose claims had expired and gone to another worker before it finished them
    /// (the store was out of reach for longer than a claim lasts): that worker schedules them.
    func fleet(takenOver count: Int)
}

extension FleetObserver {
    public func fleet(didDeliver sinks: [SinkReport]) {}
    public func fleet(didClaim claims: [FleetClaim]) {}
    public func fleet(gaveBack count: Int) {}
    public func fleet(takenOver count: Int) {}
}
