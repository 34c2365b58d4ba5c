import Domain
import Foundation
import ProviderKit

/// One line of `aggregate doctor`: what was checked, how it went, and what to do when it failed.
public struct DoctorCheck: Sendable, Hashable {
    public enum Status: Sendable, Hashable {
        case passed
        case failed
        /// Not checked, or nothing to check (a disabled source, `--offline`): never a failure.
        case skipped
    }

    public var status: Status
    /// What the line is about: `manifest`, a source id, `store`, `python3`.
    public var subject: String
    public var message: String
    /// What to do about a failure (or how to turn a skipped source on).
    public var fix: String?

    public init(_ status: Status, _ subject: String, _ message: String, fix: String? = nil) {
        self.status = status
        self.subject = subject
        self.message = message
        self.fix = fix
    }
}

/// `aggregate doctor`: checks what a run needs without fetching any data. The manifest; each enabled source's
/// variables and secrets; the data directory and the store; for HTTP sources the CA bundle and proxy the
/// transport would use, and (unless offline) DNS and TCP reachability of each host; exec programs and the
/// python3 the examples need. Never prints a secret: variables are named, files and programs shown by path,
/// proxies without their credentials.
///
/// Blocking (DNS, TCP connects, opening the store): for the command line's main thread.
public struct Doctor: Sendable {
    public var manifestURL: URL
    /// How the manifest is named in lines (`manifest.json`).
    public var displayPath: String
    public var environment: [String: String]
    /// Skips DNS and TCP.
    public var offline: Bool
    public var connectTimeoutSeconds: Double = 3
    public var registry: ProviderRegistry = .builtIn

    public init(manifestURL: URL, displayPath: String, environment: [String: String], offline: Bool) {
        self.manifestURL = manifestURL
        self.displayPath = displayPath
        self.environment = environment
        self.offline = offline
    }

    /// Every check, in order: manifest, sources (manifest order), store.
    public func run() -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let container: AppDIContainer
        do throws(ManifestError) {
            container = try AppDIContainer.load(manifestAt: manifestURL, registry: registry, environment: environment)
        } catch {
            let first = error.problems.first.map(\.description) ?? "invalid"
            checks.append(DoctorCheck(
                .failed, "manifest", "\(displayPath) is invalid (\(count(error.problems.count, "problem"))): \(first)",
                fix: "aggregate validate --manifest \(displayPath) lists every problem with its JSON path"))
            return checks + storeChecks(manifestURL: nil)
        }
        let sources = container.manifest.sources
        checks.append(DoctorCheck(
            .passed, "manifest",
            "\(displayPath) is valid (\(count(sources.count, "source")), \(sources.filter(\.enabled).count) enabled)"))
        for source in sources {
            checks += SourceDoctor(container: container, source: source, doctor: self).checks()
        }
        return checks + storeChecks(manifestURL: manifestURL)
    }

    /// The data directory and the store: writable, schema version and size (SQLite), or reachable (PostgreSQL).
    func storeChecks(manifestURL: URL?) -> [DoctorCheck] {
        let location = StoreLocation.resolve(manifestAt: manifestURL, environment: environment)
        switch location {
        case .invalid(let message):
            return [DoctorCheck(.failed, "store", message, fix: "set AGGREGATE_STORE or the manifest's store.url to a postgres:// URL")]
        case .postgres:
            let (store, warnings) = location.open()
            if store != nil { return [DoctorCheck(.passed, "store", "PostgreSQL store \(location.displayName) is reachable")] }
            return [DoctorCheck(
                .failed, "store", "PostgreSQL store \(location.displayName) cannot be used: \(warnings.first ?? "unknown reason")",
                fix: "start the server or correct the URL; `aggregate store setup` prepares a new database")]
        case .sqlite(let file):
            return sqliteChecks(file)
        }
    }

    private func sqliteChecks(_ file: URL) -> [DoctorCheck] {
        let directory = file.deletingLastPathComponent()
        let fix = "set AGGREGATE_HOME to a directory you can write, or fix the permissions of \(directory.path)"
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let probe = directory.appendingPathComponent(".doctor-\(UUID().uuidString)")
            try Data().write(to: probe)
            try FileManager.default.removeItem(at: probe)
        } catch {
            return [DoctorCheck(.failed, "data directory", "\(directory.path) is not writable", fix: fix)]
        }
        var checks = [DoctorCheck(.passed, "data directory", "\(directory.path) is writable")]
        if let schema = StoreLocation.sqlite(file).open(recovering: false).store?.schema() {
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            let current = schema.upToDate
            checks.append(DoctorCheck(
                current ? .passed : .failed, "store",
                "\(file.path): schema \(schema.applied ?? "none") (\(current ? "up to date" : "not this aggregate's")), "
                    + StoreReport.bytes(size),
                fix: current ? nil : "this store was written by a newer aggregate; use that version or a new AGGREGATE_HOME"))
        } else {
            checks.append(DoctorCheck(
                .failed, "store", "\(file.path) cannot be opened",
                fix: "move the file aside; the next run creates a new store (history and cache start afresh)"))
        }
        return checks
    }

    func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
}
