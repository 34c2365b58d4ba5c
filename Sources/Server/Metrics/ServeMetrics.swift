import CoreMetrics
import Domain
import Foundation
import HTTPClient
import Metrics
import Presentation
import Prometheus
import Synchronization

/// `/metrics`: what the watch did, per source, recorded through swift-metrics into this server's own
/// Prometheus registry (not the process-wide `MetricsSystem`, so several servers in one process, as in the
/// tests, keep apart), and written in the Prometheus text format by swift-prometheus.
///
/// Two levels per source: its refresh cycles (one load through the run engine, by the status it ended with)
/// and the HTTP requests those cycles made (`HTTPRequestRecorder`: by status code, error kind, or `cache_hit`
/// when the response cache answered without a request; a `304` is a revalidation).
///
/// Per-source series are `aggregate_source_*{source=…}`: about 25 series a source. Past a fleet of
/// `MetricsSources.autoBound` sources (or with `--metrics-sources off`) the same counts go to fleet-wide series
/// without the label (`aggregate_refreshes_total{outcome}`, …), so a scrape stays the same size at 10,000
/// sources. The fleet's state (`aggregate_sources{status}`, `aggregate_items`, the oldest success) is always there.
public final class ServeMetrics: HTTPRequestRecorder {
    private let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let process: ProcessMetrics
    private let perSource = Atomic(true)

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
        ]
        self.factory = factory
        process = ProcessMetrics(factory: factory)
    }

    /// Whether the series carry a `source` label (decided by the server from `--metrics-sources` and the
    /// number of sources, at start and on reload).
    func labelSources(_ on: Bool) {
        perSource.store(on, ordering: .relaxed)
    }

    /// A source's cycle ended: `newItems` of its items were never seen before by this server.
    public func record(_ report: SourceReport, newItems: Int, at date: Date) {
        guard perSource.load(ordering: .relaxed) else { return recordFleet(report, newItems: newItems) }
        let source = [("source", report.id)]
        Counter(label: "aggregate_source_refreshes_total", dimensions: source + [("outcome", report.status.rawValue)],
                factory: factory).increment()
        Counter(label: "aggregate_source_cache_total", dimensions: source + [("cache", report.cache.rawValue)],
                factory: factory).increment()
        if let error = report.error {
            Counter(label: "aggregate_source_errors_total", dimensions: source + [("error_kind", error.kind.rawValue)],
                    factory: factory).increment()
        }
        CoreMetrics.Timer(label: "aggregate_source_load_duration_seconds", dimensions: source, factory: factory)
            .recordSeconds(max(0, report.duration))
        Gauge(label: "aggregate_source_items", dimensions: source, factory: factory).record(report.itemCount)
        Counter(label: "aggregate_source_new_items_total", dimensions: source, factory: factory).increment(by: newItems)
        if report.status == .ok {
            Gauge(label: "aggregate_source_last_success_timestamp_seconds", dimensions: source, factory: factory)
                .record(date.timeIntervalSince1970)
        }
    }

    /// The same counts without the source label.
    private func recordFleet(_ report: SourceReport, newItems: Int) {
        Counter(label: "aggregate_refreshes_total", dimensions: [("outcome", report.status.rawValue)], factory: factory).increment()
        Counter(label: "aggregate_cache_total", dimensions: [("cache", report.cache.rawValue)], factory: factory).increment()
        if let error = report.error {
            Counter(label: "aggregate_errors_total", dimensions: [("error_kind", error.kind.rawValue)], factory: factory).increment()
        }
        CoreMetrics.Timer(label: "aggregate_load_duration_seconds", factory: factory).recordSeconds(max(0, report.duration))
        Counter(label: "aggregate_new_items_total", factory: factory).increment(by: newItems)
    }

    /// The fleet now, read at each scrape: sources by status, items, the least recent successful refresh.
    func fleet(_ summary: DashboardSummary) {
        for status in DashboardStatus.allCases {
            Gauge(label: "aggregate_sources", dimensions: [("status", status.rawValue)], factory: factory).record(summary.count(status))
        }
        Gauge(label: "aggregate_items", factory: factory).record(summary.items)
        if let oldest = summary.oldestSuccessDate {
            Gauge(label: "aggregate_oldest_success_timestamp_seconds", factory: factory).record(oldest.timeIntervalSince1970)
        }
    }

    /// One HTTP request of a source's cycle ended.
    public func record(source: String, _ outcome: HTTPRequestOutcome) {
        guard perSource.load(ordering: .relaxed) else {
            return Counter(label: "aggregate_requests_total", dimensions: [("outcome", outcome.label)], factory: factory).increment()
        }
        Counter(label: "aggregate_source_requests_total", dimensions: [("source", source), ("outcome", outcome.label)],
                factory: factory).increment()
    }

    /// Server-sent event clients connected now.
    public func eventClients(_ count: Int) {
        Gauge(label: "aggregate_sse_clients", factory: factory).record(count)
    }

    /// One request the server answered.
    public func served(route: String, status: Int) {
        Counter(label: "aggregate_http_responses_total", dimensions: [("route", route), ("status", String(status))],
                factory: factory).increment()
    }

    /// The text format, with the process metrics read now.
    public func exposition() -> [UInt8] {
        process.update()
        return registry.emitToBuffer()
    }
}
