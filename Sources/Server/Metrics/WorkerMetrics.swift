import App
import CoreMetrics
import Domain
import Foundation
import Metrics
import Prometheus

/// `aggregate worker --metrics`: what one worker of a fleet did, recorded through swift-metrics into its own
/// Prometheus registry and written by swift-prometheus, as `serve`'s `/metrics` is (`ServeMetrics`).
///
/// The series name no source and no URL: a fleet's sources are many and every worker runs a share of them, so
/// per-source series belong to `serve`, which reads the fleet's state from the store. The schedule lag is how
/// late each claimed source was (the store's now minus when it fell due): the fleet keeps up when it stays
/// well below the sources' interval.
public final class WorkerMetrics: FleetObserver {
    private let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let process: ProcessMetrics

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // The lag is recorded as a duration: seconds to an hour, as intervals go.
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5), .seconds(15), .seconds(30), .seconds(60),
            .seconds(300), .seconds(900), .seconds(3600),
        ]
        self.factory = factory
        process = ProcessMetrics(factory: factory)
        // Present from the first scrape, before anything was claimed.
        Counter(label: "aggregate_worker_claims_total", factory: factory).increment(by: 0)
        Counter(label: "aggregate_worker_claims_given_back_total", factory: factory).increment(by: 0)
        Counter(label: "aggregate_worker_claims_taken_over_total", factory: factory).increment(by: 0)
    }

    public func fleet(didClaim claims: [FleetClaim]) {
        Counter(label: "aggregate_worker_claim_batches_total", factory: factory).increment()
        Counter(label: "aggregate_worker_claims_total", factory: factory).increment(by: claims.count)
        let lag = CoreMetrics.Timer(label: "aggregate_worker_schedule_lag_seconds", factory: factory)
        for claim in claims { lag.recordSeconds(claim.lagSeconds) }
    }

    public func fleet(didFinish report: SourceReport, next: Date) {
        Counter(label: "aggregate_worker_sources_total", dimensions: [("outcome", report.status.rawValue)], factory: factory)
            .increment()
        CoreMetrics.Timer(label: "aggregate_worker_source_duration_seconds", factory: factory).recordSeconds(max(0, report.duration))
    }

    public func fleet(gaveBack count: Int) {
        Counter(label: "aggregate_worker_claims_given_back_total", factory: factory).increment(by: count)
    }

    public func fleet(takenOver count: Int) {
        Counter(label: "aggregate_worker_claims_taken_over_total", factory: factory).increment(by: count)
    }

    public func fleet(problem: String) {
        // Not a series: the message is for people (stderr), and may name a host.
    }

    /// The text format, with the process metrics read now.
    public func exposition() -> [UInt8] {
        process.update()
        return registry.emitToBuffer()
    }
}
