import CoreMetrics
import Domain
import Foundation
import HTTPClient
import Metrics
import Prometheus

/// `/metrics`: what the watch did, per source, recorded through swift-metrics into this server's own
/// Prometheus registry (not the process-wide `MetricsSystem`, so several servers in one process, as in the
/// tests, keep apart), and written in the Prometheus text format by swift-prometheus.
///
/// Two levels per source: its refresh cycles (one load through the run engine, by the status it ended with)
/// and the HTTP requests those cycles made (`HTTPRequestRecorder`: by status code, error kind, or `cache_hit`
/// when the response cache answered without a request; a `304` is a revalidation).
public final class ServeMetrics: HTTPRequestRecorder {
    private let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let process: ProcessMetrics

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

    /// A source's cycle ended: `newItems` of its items were never seen before by this server.
    public func record(_ report: SourceReport, newItems: Int, at date: Date) {
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

    /// One HTTP request of a source's cycle ended.
    public func record(source: String, _ outcome: HTTPRequestOutcome) {
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
