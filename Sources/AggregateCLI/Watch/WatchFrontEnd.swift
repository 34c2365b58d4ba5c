import App
import Domain
import Foundation
import Presentation
import Synchronization

/// How `aggregate watch` shows what happens: a full-screen view, a stream of new items, or a report per line.
protocol WatchFrontEnd: WatchObserver {
    /// Each run's output, shaped by the watch's `--since` and `--dedupe` (by default: the items collected into
    /// the reports).
    func outputs(_ shaping: ItemShaping) -> @Sendable () -> any RunOutput
    /// Whether every cycle should deliver each source's whole result (else only new items).
    var wantsEveryItem: Bool { get }
    /// Before the first cycle: `sources` are watched; `onQuit` stops the watch (the view's `q`).
    func begin(watcher: Watcher, sources: [String], onQuit: @escaping @Sendable () -> Void)
    /// After the watch stopped: flush, restore the terminal.
    func end()
    /// After a manifest reload: these sources are watched now.
    func reloaded(sources: [String])
}

extension WatchFrontEnd {
    func reloaded(sources: [String]) {}
    func outputs(_ shaping: ItemShaping) -> @Sendable () -> any RunOutput { { CollectedOutput(shaping) } }
}

enum WatchFrontEnds {
    static func make(format: WatchCommand.Format, verbose: Bool, quiet: Bool, jq: JQFilter?) -> any WatchFrontEnd {
        switch format {
        case .view: WatchScreenFrontEnd(color: Terminal.stdoutWantsColor)
        case .ndjson: NDJSONWatchFrontEnd(status: WatchStatusLines(verbose: verbose, quiet: quiet), jq: jq)
        case .json: JSONWatchFrontEnd(status: WatchStatusLines(verbose: verbose, quiet: quiet))
        }
    }
}

/// Status changes on stderr for the front ends that keep stdout for data: every finish with `--verbose`, a
/// source's failures and recoveries otherwise (never with `--quiet`).
final class WatchStatusLines: Sendable {
    let verbose: Bool
    let quiet: Bool
    private let last = Mutex<[String: SourceStatus]>([:])

    init(verbose: Bool, quiet: Bool) {
        self.verbose = verbose
        self.quiet = quiet
    }

    func report(_ report: SourceReport, next: Date?) {
        let previous = last.withLock { last in
            defer { last[report.id] = report.status }
            return last[report.id]
        }
        let changed = previous != report.status
        guard verbose || (!quiet && changed && (report.status != .ok || previous != nil)) else { return }
        Terminal.writeError(Self.line(report, next: next))
    }

    /// One source's finish for stderr: its status, error, item count and next run (watch and worker alike).
    static func line(_ report: SourceReport, next: Date?) -> String {
        var line = "aggregate: \(report.id): \(report.status.rawValue)"
        if let error = report.error { line += " (\(error.kind.rawValue)): \(error.message)" }
        line += ", \(report.itemCount) item\(report.itemCount == 1 ? "" : "s")"
        if let next { line += ", next at \(ISO8601.string(from: next))" }
        return line + "\n"
    }
}

/// `-f ndjson`: each item once, when first seen, as the run reads it (through `--jq`: an item the filter
/// fails on is reported on stderr and the watch goes on).
final class NDJSONWatchFrontEnd: WatchFrontEnd {
    private let stdout = StandardOutput()
    private let writer: NDJSONStreamWriter
    private let status: WatchStatusLines
    var wantsEveryItem: Bool { false }

    init(status: WatchStatusLines, jq: JQFilter?) {
        self.status = status
        let stdout = self.stdout
        let failures = JQFailures()
        let writer = NDJSONStreamWriter(
            limit: nil, jq: jq, onFailure: { failure, item in failures.report(failure, at: "item \(item)") }
        ) { chunk in
            stdout.write(bytes: chunk)
            stdout.flush()
        }
        self.writer = writer
    }

    /// One stream for every run: each item is printed once however many runs carry it.
    func outputs(_ shaping: ItemShaping) -> @Sendable () -> any RunOutput {
        let stream = StreamedOutput(shaping) { [writer] source, items, more in writer.write(items, source: source.id, more: more) }
        return { stream }
    }

    func begin(watcher: Watcher, sources: [String], onQuit: @escaping @Sendable () -> Void) {}
    func watchDidStart(_ ids: [String]) {}
    func watch(didFinish report: SourceReport, next: Date?, news: NewItems) { status.report(report, next: next) }

    func end() {
        writer.flush()
        stdout.flush()
    }
}

/// `-f json`: for each source whose result changed in a cycle, one report (the `--format json` contract with
/// that source alone) on one line.
final class JSONWatchFrontEnd: WatchFrontEnd {
    private let stdout = StandardOutput()
    private let status: WatchStatusLines
    /// What was last printed of each source: its status, error and item ids.
    private let printed = Mutex<[String: String]>([:])
    var wantsEveryItem: Bool { true }

    init(status: WatchStatusLines) {
        self.status = status
    }

    func begin(watcher: Watcher, sources: [String], onQuit: @escaping @Sendable () -> Void) {}
    func watchDidStart(_ ids: [String]) {}

    func watch(didFinish report: SourceReport, next: Date?, news: NewItems) {
        status.report(report, next: next)
        let signature = "\(report.status.rawValue)|\(report.error?.description ?? "")|"
            + report.items.map(\.id).joined(separator: "\u{1F}")
        let changed = printed.withLock { printed in
            defer { printed[report.id] = signature }
            return printed[report.id] != signature
        }
        guard changed else { return }
        var line = ""
        JSONRenderer(pretty: false).render(
            AggregateReport(generatedAt: Date(), sources: [report]), options: RenderOptions(), to: &line)
        stdout.write(line)
        stdout.flush()
    }

    func end() { stdout.flush() }
}
