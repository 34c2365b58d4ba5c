import Domain
import Foundation
import HTTPClient
import ProviderKit

/// Reads and structurally validates a manifest, reporting every problem with its JSON path.
///
/// Provider options are checked later, by each provider (see `AppDIContainer.validate(selection:)`), because only the
/// provider's target knows its option schema.
public enum ManifestLoader {
    /// `$schema` names the JSON Schema editors check the file with (`aggregate schema`); the tool ignores it.
    static let topLevelKeys = ["$schema", "version", "defaults", "plugins", "sources", "sinks", "store", "reader"]
    static let defaultsKeys = [
        "timeoutSeconds", "concurrency", "cacheTTLSeconds", "refreshSeconds", "caFile", "maxConcurrentRequests", "maxConnectionsPerHost",
        "filter", "retention",
    ]
    static let sourceKeys = [
        "id", "provider", "enabled", "timeoutSeconds", "concurrency", "cacheTTLSeconds", "refreshSeconds", "options", "filter",
        "retention",
    ]

    /// Reads the manifest at `url`, returning the structural problems beside a manifest of the sources that could
    /// be read (valid id, registered provider), so their options can be checked in the same pass. Throws only when
    /// nothing can be read at all (no file, not JSON, not an object).
    public static func loadCollecting(
        from url: URL, providers: [String]
    ) throws(ManifestError) -> (Manifest, [ManifestProblem]) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "cannot be read" : "no such file"
            throw ManifestError(path: "", "\(url.path): \(reason)")
        }
        return try parseCollecting(data, baseDirectory: url.deletingLastPathComponent(), providers: providers)
    }

    public static func parseCollecting(
        _ data: Data, baseDirectory: URL, providers: [String]
    ) throws(ManifestError) -> (Manifest, [ManifestProblem]) {
        let root: JSONValue
        do {
            root = try JSONValue.parse(data)
        } catch {
            throw ManifestError(path: "", "not valid JSON: \(error)")
        }
        var problems: [ManifestProblem] = []
        func problem(_ path: String, _ message: String) {
            problems.append(ManifestProblem(path: path, message: message))
        }
        guard case .object(let top) = root else {
            throw ManifestError(path: "", "expected a JSON object at the top level, found \(root.typeName)")
        }
        checkKeys(top, allowed: topLevelKeys, path: "", report: problem)

        switch top["version"] {
        case nil: problem("version", "required; this tool reads manifest version 1")
        case .int(1)?: break
        case let other?: problem("version", "unsupported version \(other.compactJSON); this tool reads version 1")
        }

        var defaults = Manifest.Defaults()
        if let value = top["defaults"] {
            if case .object(let object) = value {
                checkKeys(object, allowed: defaultsKeys, path: "defaults", report: problem)
                defaults.timeoutSeconds = seconds(object["timeoutSeconds"], "defaults.timeoutSeconds", problem) ?? defaults.timeoutSeconds
                defaults.concurrency = concurrency(object["concurrency"], "defaults.concurrency", problem) ?? defaults.concurrency
                defaults.cacheTTLSeconds = cacheTTL(object["cacheTTLSeconds"], "defaults.cacheTTLSeconds", problem)
                    ?? defaults.cacheTTLSeconds
                defaults.refreshSeconds = seconds(object["refreshSeconds"], "defaults.refreshSeconds", problem)
                    ?? defaults.refreshSeconds
                defaults.caFile = caFile(object["caFile"], "defaults.caFile", baseDirectory: baseDirectory, problem)
                defaults.maxConcurrentRequests = maxConcurrentRequests(object["maxConcurrentRequests"], "defaults.maxConcurrentRequests", problem)
                    ?? defaults.maxConcurrentRequests
                defaults.filter = object["filter"].flatMap { filter($0, path: "defaults.filter", report: problem) }
                defaults.retention = retention(object["retention"], "defaults.retention", base: .default, problem) ?? .default
                defaults.maxConnectionsPerHost = maxConcurrentRequests(
                    object["maxConnectionsPerHost"], "defaults.maxConnectionsPerHost", problem)
            } else {
                problem("defaults", "expected an object, found \(value.typeName)")
            }
        }

        // Plugins first: their names are providers the sources may use.
        let plugins = Self.plugins(top["plugins"], builtIn: providers, baseDirectory: baseDirectory, report: problem)
        let providers = providers + plugins.map(\.name)

        var sources: [Manifest.Source] = []
        switch top["sources"] {
        case nil:
            problem("sources", "required: an array of sources")
        case .array(let entries)?:
            var seen: [String: Int] = [:]
            for (index, entry) in entries.enumerated() {
                let path = "sources[\(index)]"
                guard case .object(let object) = entry else {
                    problem(path, "expected an object, found \(entry.typeName)")
                    continue
                }
                checkKeys(object, allowed: sourceKeys, path: path, report: problem)
                let id = object["id"]?.stringValue
                if object["id"] == nil {
                    problem("\(path).id", "required")
                } else if let id {
                    if !isValidID(id) {
                        problem("\(path).id", "'\(id)' must be lowercase letters, digits and '-' only")
                    } else if let first = seen[id] {
                        problem("\(path).id", "'\(id)' is already used by sources[\(first)]")
                    } else {
                        seen[id] = index
                    }
                } else {
                    problem("\(path).id", "expected a string, found \(object["id"]!.typeName)")
                }
                let provider = object["provider"]?.stringValue
                if object["provider"] == nil {
                    problem("\(path).provider", "required; registered providers: \(providers.joined(separator: ", "))")
                } else if let provider {
                    if !providers.contains(provider) {
                        problem("\(path).provider",
                            "unknown provider '\(provider)'\(Suggestion.didYouMean(provider, in: providers)); registered providers: \(providers.joined(separator: ", "))")
                    }
                } else {
                    problem("\(path).provider", "expected a string, found \(object["provider"]!.typeName)")
                }
                var enabled = true
                if let value = object["enabled"] {
                    if case .bool(let flag) = value { enabled = flag } else {
                        problem("\(path).enabled", "expected true or false, found \(value.typeName)")
                    }
                }
                let timeoutSeconds = seconds(object["timeoutSeconds"], "\(path).timeoutSeconds", problem)
                let sourceConcurrency = concurrency(object["concurrency"], "\(path).concurrency", problem)
                let sourceCacheTTL = cacheTTL(object["cacheTTLSeconds"], "\(path).cacheTTLSeconds", problem)
                let refreshSeconds = seconds(object["refreshSeconds"], "\(path).refreshSeconds", problem)
                let sourceRetention = retention(object["retention"], "\(path).retention", base: defaults.retention, problem)
                let options = object["options"] ?? .object([:])
                if case .object = options {} else {
                    problem("\(path).options", "expected an object, found \(options.typeName)")
                }
                var filters = defaults.filter.map { [$0] } ?? []
                switch object["filter"] {
                case nil: break
                case .null?: filters = []
                case let written?: filters += filter(written, path: "\(path).filter", report: problem).map { [$0] } ?? []
                }
                // Sources with a malformed or repeated id are still handed over for their options to be checked,
                // so one report lists everything; the id problem above keeps the manifest invalid.
                if let id, let provider, providers.contains(provider) {
                    sources.append(Manifest.Source(
                        id: id, provider: provider, enabled: enabled,
                        timeoutSeconds: timeoutSeconds ?? defaults.timeoutSeconds,
                        concurrency: sourceConcurrency ?? defaults.concurrency,
                        cacheTTLSeconds: sourceCacheTTL ?? defaults.cacheTTLSeconds,
                        refreshSeconds: refreshSeconds ?? defaults.refreshSeconds,
                        options: options, index: index, filters: filters, retention: sourceRetention ?? defaults.retention))
                }
            }
        case let other?:
            problem("sources", "expected an array, found \(other.typeName)")
        }

        var sourceIDs: [String] = []
        if case .array(let entries)? = top["sources"] {
            sourceIDs = entries.compactMap { $0["id"]?.stringValue }
        }
        let sinks = Self.sinks(top["sinks"], sourceIDs: sourceIDs, report: problem)
        var manifest = Manifest(
            version: 1, defaults: defaults, sources: sources, sinks: sinks, baseDirectory: baseDirectory.standardizedFileURL)
        manifest.storeURL = storeURL(top["store"], report: problem)
        manifest.plugins = plugins
        manifest.reader = reader(top["reader"], report: problem)
        return (manifest, problems)
    }

    /// `"store": {"url": "postgres://…"}`.
    static func storeURL(_ value: JSONValue?, report problem: (String, String) -> Void) -> String? {
        guard let value else { return nil }
        guard case .object(let object) = value else {
            problem("store", "expected an object, found \(value.typeName)")
            return nil
        }
        checkKeys(object, allowed: ["url"], path: "store", report: problem)
        guard let url = object["url"]?.stringValue, !url.isEmpty else {
            problem("store.url", "required: a postgres://user@host:port/database URL (or \"${DATABASE_URL}\")")
            return nil
        }
        guard url.hasPrefix("${") || url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            // Never echo it: it may hold a password.
            problem("store.url", "expected a postgres:// URL or a ${VARIABLE} holding one")
            return nil
        }
        return url
    }

    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    static func checkKeys(
        _ object: JSONObject, allowed: [String], path: String, report: (String, String) -> Void
    ) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            let location = path.isEmpty ? key : "\(path).\(key)"
            report(location, "unknown key\(Suggestion.didYouMean(key, in: allowed)); allowed: \(allowed.joined(separator: ", "))")
        }
    }

    static func seconds(_ value: JSONValue?, _ path: String, _ report: (String, String) -> Void) -> Double? {
        guard let value else { return nil }
        guard let seconds = number(value), seconds > 0, seconds <= 86_400 else {
            report(path, "expected a number of seconds greater than 0 (at most 86400), found \(value.compactJSON)")
            return nil
        }
        return seconds
    }

    /// A PEM bundle path, relative to the manifest's directory (as the HTTP sources' own `caFile`).
    private static func caFile(
        _ value: JSONValue?, _ path: String, baseDirectory: URL, _ report: (String, String) -> Void
    ) -> URL? {
        guard let value else { return nil }
        guard let text = value.stringValue, !text.isEmpty else {
            report(path, "expected the path of a PEM file, found \(value.compactJSON)")
            return nil
        }
        let expanded = (text as NSString).expandingTildeInPath
        let url = expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded).standardizedFileURL
            : baseDirectory.appendingPathComponent(expanded).standardizedFileURL
        if let problem = CertificateBundle.problem(at: url) {
            report(path, "\(url.path) \(problem)")
            return nil
        }
        return url
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// 0 (off) up to 30 days.
    private static func cacheTTL(_ value: JSONValue?, _ path: String, _ report: (String, String) -> Void) -> Double? {
        guard let value else { return nil }
        guard let seconds = number(value), seconds >= 0, seconds <= 2_592_000 else {
            report(path, "expected a number of seconds from 0 (no cache) to 2592000 (30 days), found \(value.compactJSON)")
            return nil
        }
        return seconds
    }

    private static func concurrency(_ value: JSONValue?, _ path: String, _ report: (String, String) -> Void) -> Int? {
        guard let value else { return nil }
        guard case .int(let number) = value, (1...256).contains(number) else {
            report(path, "expected an integer from 1 to 256, found \(value.compactJSON)")
            return nil
        }
        return number
    }

    /// `defaults.maxConcurrentRequests` or `defaults.maxConnectionsPerHost` (at `path`): 1 to 1,024.
    private static func maxConcurrentRequests(_ value: JSONValue?, _ path: String, _ report: (String, String) -> Void) -> Int? {
        guard let value else { return nil }
        let range = Manifest.Defaults.maxConcurrentRequestsRange
        guard case .int(let number) = value, range.contains(number) else {
            report(path,
                   "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(value.compactJSON)")
            return nil
        }
        return number
    }
}
