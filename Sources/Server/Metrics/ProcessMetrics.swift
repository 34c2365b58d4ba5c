import CoreMetrics
import Foundation
import Metrics
import Prometheus
import Synchronization

/// The usual `process_*` metrics, read from `/proc/self` when scraped (Linux; elsewhere only the start time).
final class ProcessMetrics: Sendable {
    private let factory: PrometheusMetricsFactory
    /// CPU seconds already added to the counter (it only goes up by differences).
    private let cpuReported = Mutex(0.0)
    private let startTime = Date()

    init(factory: PrometheusMetricsFactory) {
        self.factory = factory
    }

    func update() {
        Gauge(label: "process_start_time_seconds", factory: factory).record(startTime.timeIntervalSince1970)
        if let pages = Self.firstNumbers(path: "/proc/self/statm", count: 2), pages.count == 2 {
            Gauge(label: "process_resident_memory_bytes", factory: factory).record(pages[1] * Double(Self.pageSize))
            Gauge(label: "process_virtual_memory_bytes", factory: factory).record(pages[0] * Double(Self.pageSize))
        }
        if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            Gauge(label: "process_open_fds", factory: factory).record(descriptors.count)
        }
        if let seconds = Self.cpuSeconds() {
            let delta = cpuReported.withLock { reported -> Double in
                let delta = max(0, seconds - reported)
                reported += delta
                return delta
            }
            FloatingPointCounter(label: "process_cpu_seconds_total", factory: factory).increment(by: delta)
        }
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    private static func firstNumbers(path: String, count: Int) -> [Double]? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(count).compactMap { Double($0) }
    }

    /// utime + stime of `/proc/self/stat` (fields 14 and 15, counted after the command's closing parenthesis).
    private static func cpuSeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / ticksPerSecond
    }
}
