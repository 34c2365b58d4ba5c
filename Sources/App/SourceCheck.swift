import Dispatch
import Domain
import Foundation
import Processes
import ProviderKit
import Synchronization

/// `aggregate check-source ID`: the conformance checks that make sense from outside a provider, run against
/// any configured source, exec sources included, so authors of providers in any language get the safety net
/// Swift providers get from ProviderTesting's conformance kit.
///
/// The source runs twice through the run engine (cache not read, not shaped; the manifest's filter applies and
/// what it dropped is shown): its options validated, its items well-formed, ids unique and stable across the runs, each run ended within the source's timeout
/// (plus the time a stop may take), no secret of its options in items, messages or logs, any failure a typed
/// error. Blocking: for the command line's main thread.
public struct SourceCheck: Sendable {
    /// The time a stopped source may take to be gone after its timeout (an exec program's SIGTERM grace,
    /// then SIGKILL): a run longer than timeout + this did not respect its timeout.
    public static let stopAllowanceSeconds: Double = 5

    let container: AppDIContainer
    let sourceID: String
    /// The log lines the container's logger wrote so far (the command line captures them).
    let logs: @Sendable () -> [String]

    public init(container: AppDIContainer, sourceID: String, logs: @escaping @Sendable () -> [String]) {
        self.container = container
        self.sourceID = sourceID
        self.logs = logs
    }

    /// The checks, in order. Throws a selection error when the manifest has no such source.
    public func run() throws(SelectionError) -> [DoctorCheck] {
        let source = try container.manifest.sources(selectedBy: [sourceID])[0]
        var checks = [DoctorCheck(.passed, "options", "valid for the \(source.provider) provider (the manifest loaded)")]
        let resolved = container.resolved(source)
        if !resolved.missing.isEmpty {
            let names = resolved.missing.map { "$\($0)" }.joined(separator: ", ")
            return checks + [DoctorCheck(.failed, "options", "need \(names), which is not set", fix: "set it, then check again")]
        }
        let secrets = secretValues(of: source, resolved: resolved)
        let request = RunRequest(selection: [sourceID], cacheMode: .refresh)
        var reports: [SourceReport] = []
        for attempt in 1...2 {
            let started = DispatchTime.now()
            let outcome = try container.engine.runAndWait(request)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            guard let report = outcome.report.sources.first(where: { $0.id == sourceID }) else { continue }
            reports.append(report)
            checks.append(runCheck(report, attempt: attempt))
            let allowed = source.timeoutSeconds + Self.stopAllowanceSeconds
            checks.append(DoctorCheck(
                seconds <= allowed ? .passed : .failed, "timeout",
                "run \(attempt) ended after \(format(seconds)) s (timeout \(format(source.timeoutSeconds)) s)",
                fix: seconds <= allowed ? nil : "stop when the deadline passes: an exec program must exit on SIGTERM"))
            checks += typedErrorCheck(report)
        }
        checks += filterCheck(source, reports: reports)
        checks += itemChecks(reports)
        checks.append(secretCheck(secrets, reports: reports))
        return checks
    }

    /// What the manifest's filter kept of the first run (the item checks below see only what it kept).
    private func filterCheck(_ source: Manifest.Source, reports: [SourceReport]) -> [DoctorCheck] {
        guard !source.filters.isEmpty, let first = reports.first, let dropped = first.filteredItemCount else { return [] }
        let paths = source.filters.map(\.path).joined(separator: " and ")
        let total = first.itemCount + dropped
        return [DoctorCheck(.passed, "filter", "\(paths) kept \(first.itemCount) of \(total) items, dropped \(dropped)")]
    }

    private func runCheck(_ report: SourceReport, attempt: Int) -> DoctorCheck {
        let summary = "run \(attempt): \(report.status.rawValue), \(report.itemCount) items in \(format(report.duration)) s"
        switch report.status {
        case .ok: return DoctorCheck(.passed, "run", summary + warnings(report))
        default:
            return DoctorCheck(.failed, "run", summary + (report.error.map { ": \($0.kind.rawValue): \($0.message)" } ?? ""),
                               fix: "aggregate --sources \(sourceID) --verbose shows the source's log")
        }
    }

    private func warnings(_ report: SourceReport) -> String {
        report.warnings.isEmpty ? "" : " (\(report.warnings.count) warning\(report.warnings.count == 1 ? "" : "s"): \(report.warnings[0]))"
    }

    /// A failure must be one of the taxonomy's kinds with a message of its own, never a raw platform error.
    private func typedErrorCheck(_ report: SourceReport) -> [DoctorCheck] {
        guard let error = report.error else { return [] }
        let raw = ["URLError", "NSError", "Error Domain=", "DecodingError", "Swift."].first { error.message.contains($0) }
        guard let raw, !error.message.isEmpty else {
            return [DoctorCheck(.passed, "errors", "the failure is typed (\(error.kind.rawValue)) and says what happened")]
        }
        return [DoctorCheck(.failed, "errors", "the \(error.kind.rawValue) message carries a raw platform error (\(raw))",
                            fix: "map the failure to a message people can act on")]
    }

    private func itemChecks(_ reports: [SourceReport]) -> [DoctorCheck] {
        guard let first = reports.first, first.status == .ok || first.status == .stale else { return [] }
        var checks: [DoctorCheck] = []
        let malformed = first.items.filter { $0.id.isEmpty || $0.title.isEmpty }
        checks.append(malformed.isEmpty
            ? DoctorCheck(.passed, "items", "\(first.items.count) items, each with an id and a title")
            : DoctorCheck(.failed, "items", "\(malformed.count) of \(first.items.count) items lack an id or a title",
                          fix: "give every item an id and a title"))
        let ids = first.items.map(\.id)
        let repeated = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        checks.append(repeated.isEmpty
            ? DoctorCheck(.passed, "ids", "unique")
            : DoctorCheck(.failed, "ids", "repeated: \(repeated.prefix(3).joined(separator: ", "))",
                          fix: "ids identify items across runs (--new, sinks, feeds): make each one unique"))
        if reports.count == 2 {
            let second = reports[1].items.map(\.id)
            checks.append(second == ids
                ? DoctorCheck(.passed, "stable", "the same \(ids.count) ids in the same order on both runs")
                : DoctorCheck(.failed, "stable", "the ids changed between two runs (\(Set(ids).symmetricDifference(second).count) differ)",
                              fix: "derive ids from the data (a key, a URL), not from the run (a counter, a time)"))
        }
        return checks
    }

    private func secretCheck(_ secrets: [String], reports: [SourceReport]) -> DoctorCheck {
        guard !secrets.isEmpty else { return DoctorCheck(.skipped, "secrets", "the source's options hold no secret to look for") }
        var texts = logs()
        for report in reports {
            texts += report.warnings + [report.message, report.error?.message].compactMap { $0 }
            texts += report.items.map { JSONValue.object(["id": .string($0.id), "title": .string($0.title),
                                                          "subtitle": $0.subtitle.map(JSONValue.string) ?? .null,
                                                          "url": .string($0.url?.absoluteString ?? ""),
                                                          "fields": .object($0.fields)]).compactJSON }
        }
        let leaked = secrets.filter { secret in texts.contains { $0.contains(secret) } }.count
        return leaked == 0
            ? DoctorCheck(.passed, "secrets", "none of the options' \(secrets.count) secret value\(secrets.count == 1 ? "" : "s") in items, messages or logs")
            : DoctorCheck(.failed, "secrets", "\(leaked) secret value\(leaked == 1 ? "" : "s") of the options echoed in items, messages or logs",
                          fix: "never print a credential; an exec program's stderr is logged")
    }

    /// Values that must not come out: secret options (references read here as a run reads them), and for an
    /// exec source its `env` and `config` values under secret-sounding names.
    private func secretValues(of source: Manifest.Source, resolved options: ResolvedOptions) -> [String] {
        let provider = container.registry.provider(named: source.provider)
        let secretNames = Set((provider?.options ?? []).filter(\.secret).map(\.name))
        var resolved = options.value
        let references = options.references
        if !references.isEmpty {
            let result = Mutex<JSONValue?>(nil)
            let done = DispatchSemaphore(value: 0)
            references.resolve(
                in: options.value, baseDirectory: container.manifest.baseDirectory, timeoutSeconds: source.timeoutSeconds,
                cancellation: nil, environment: container.environment, cache: container.secretCache
            ) { outcome in
                result.withLock { $0 = try? outcome.get() }
                done.signal()
            }
            done.wait()
            resolved = result.withLock { $0 } ?? options.value
        }
        var values = (resolved.objectValue ?? [:]).filter { secretNames.contains($0.key) }.compactMap(\.value.stringValue)
            + references.secrets(in: resolved)
        if source.provider == "exec" {
            let environment = (resolved["env"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
            values += ExecCommand(sourceID: source.id, argv: [], environment: environment, config: resolved["config"] ?? [:],
                                  baseDirectory: container.manifest.baseDirectory).secrets
        }
        return Array(Set(values.filter { $0.count >= 4 }))
    }

    private func format(_ seconds: Double) -> String { String(format: "%.1f", seconds) }
}
