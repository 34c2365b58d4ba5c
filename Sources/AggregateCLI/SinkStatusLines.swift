import App
import Domain
import Foundation
import Synchronization

/// What the sinks did, on stderr: each failure (unless `--quiet`), and with `--verbose` every pass's
/// counts. Remembers which sinks' last pass failed, for the exit status (`--allow-sink-failures`).
final class SinkStatusLines: Sendable {
    private let verbose: Bool
    private let quiet: Bool
    private let failing = Mutex<Set<String>>([])

    init(verbose: Bool, quiet: Bool) {
        self.verbose = verbose
        self.quiet = quiet
    }

    func report(_ sinks: [SinkReport]) {
        for sink in sinks {
            failing.withLock { failing in
                if sink.hasFailures { failing.insert(sink.id) } else { failing.remove(sink.id) }
            }
            if verbose {
                Terminal.writeError("aggregate: sink \(sink.id): queued \(Self.count(sink.queued, "delivery", "deliveries"))"
                    + " (\(Self.count(sink.queuedItems, "item", "items"))), delivered \(sink.delivered)"
                    + " (\(Self.count(sink.deliveredItems, "item", "items"))), \(sink.pending) pending\n")
            }
            guard !quiet else { continue }
            for error in sink.errors { Terminal.writeError("aggregate: sink \(sink.id): \(error)\n") }
        }
    }

    /// Whether a sink's last pass failed: exit 1 unless `--allow-sink-failures`.
    var hasFailures: Bool { failing.withLock { !$0.isEmpty } }

    private static func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number) \(number == 1 ? one : many)"
    }
}

/// A watch's observer that also reports its sinks, around the front end that shows the sources.
final class SinkReportingObserver: WatchObserver {
    private let front: any WatchObserver
    private let sinks: SinkStatusLines

    init(_ front: any WatchObserver, sinks: SinkStatusLines) {
        self.front = front
        self.sinks = sinks
    }

    func watchDidStart(_ ids: [String]) { front.watchDidStart(ids) }
    func watch(didFinish report: SourceReport, next: Date?, news: NewItems) {
        front.watch(didFinish: report, next: next, news: news)
    }
    func watch(didDeliver sinks: [SinkReport]) { self.sinks.report(sinks) }
}
