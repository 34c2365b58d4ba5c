import Domain
import Foundation
import ProviderKit
import Sinks

extension Manifest {
    /// A place new items are delivered to: `"sinks": [{ "id", "type", "sources", "batch", … }]`.
    public struct Sink: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// POST `{ "sink", "deliveryId", "items" }`, signed with the secret.
            case webhook
            /// A program that reads the batch as NDJSON on stdin.
            case exec
            /// A notification per delivery on an ntfy topic.
            case ntfy
            /// A message per delivery to a Slack (Mattermost, Discord) incoming webhook.
            case slack
            /// One digest email per pass (or per hour, per day) with every new item, through SMTP.
            case email

            /// Items per delivery unless the sink says: one notification per item for ntfy, a readable
            /// message for Slack.
            var defaultBatch: Int {
                switch self {
                case .webhook, .exec: Sink.defaultBatch
                case .ntfy: 1
                case .slack: 20
                case .email: 10_000
                }
            }

            /// Settings that hold a credential: a string (`${VAR}`) or a secret reference (`fromFile`,
            /// `fromCommand`).
            var secretKeys: Set<String> {
                switch self {
                case .webhook: ["secret"]
                case .exec: []
                case .ntfy: ["token"]
                case .slack: ["url"]
                case .email: ["username", "password"]
                }
            }

            /// Settings whose every value may be a credential (an environment).
            var secretMemberKeys: Set<String> { self == .exec ? ["env"] : [] }
        }

        public static let defaultBatch = 100
        public static let defaultTimeoutSeconds: Double = 10

        public var id: String
        public var kind: Kind
        /// The sources whose items it receives; nil: every source.
        public var sources: [String]?
        /// Items per delivery, at most.
        public var batch: Int
        /// The longest one attempt may take.
        public var timeoutSeconds: Double
        /// Tries after the first within one run (exponential backoff, `Retry-After` honoured).
        public var maxRetries: Int
        /// The type's own settings as written, before `${VAR}` substitution: `url`, `secret` (webhook);
        /// `command`, `args`, `env` (exec).
        public var settings: JSONObject
        /// Position in `sinks`, for JSON paths in messages.
        public var index: Int

        public var path: String { "sinks[\(index)]" }

        /// `digest` of an email sink: how long its items gather before a message goes out.
        public static let digestPeriods: [String: Double] = ["hourly": 3600, "daily": 86_400]

        /// How its pending deliveries go out: an email is a digest of all of them (once the oldest has waited
        /// the `digest` period), the others one attempt each.
        public var grouping: SinkGrouping {
            guard kind == .email else { return .each }
            return .digest(period: settings["digest"]?.stringValue.flatMap { Self.digestPeriods[$0] } ?? 0)
        }

        /// Whether items of `source` go to this sink.
        public func takes(_ source: String) -> Bool { sources?.contains(source) ?? true }
    }
}

extension ManifestLoader {
    static let sinkKeys = ["id", "type", "sources", "batch", "timeoutSeconds", "maxRetries"]
    static let sinkTypeKeys: [Manifest.Sink.Kind: [String]] = [
        .webhook: ["url", "secret"], .exec: ["command", "args", "env"], .ntfy: ["url", "token", "priority", "tags"],
        .slack: ["url", "template"],
        .email: ["url", "from", "to", "username", "password", "subject", "digest", "caFile"],
    ]

    /// Reads `sinks`, reporting every problem with its JSON path. `sourceIDs`: the manifest's source ids, which a
    /// sink's `sources` must name.
    static func sinks(
        _ value: JSONValue?, sourceIDs: [String], report problem: (String, String) -> Void
    ) -> [Manifest.Sink] {
        guard let value else { return [] }
        guard case .array(let entries) = value else {
            problem("sinks", "expected an array, found \(value.typeName)")
            return []
        }
        var sinks: [Manifest.Sink] = []
        var seen: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let path = "sinks[\(index)]"
            guard case .object(let object) = entry else {
                problem(path, "expected an object, found \(entry.typeName)")
                continue
            }
            let id = object["id"]?.stringValue
            switch object["id"] {
            case nil: problem("\(path).id", "required")
            case .string(let id)?:
                if !isValidID(id) {
                    problem("\(path).id", "'\(id)' must be lowercase letters, digits and '-' only")
                } else if let first = seen[id] {
                    problem("\(path).id", "'\(id)' is already used by sinks[\(first)]")
                } else {
                    seen[id] = index
                }
            case let other?: problem("\(path).id", "expected a string, found \(other.typeName)")
            }
            let kinds = Manifest.Sink.Kind.allCases.map(\.rawValue)
            var kind: Manifest.Sink.Kind?
            switch object["type"] {
            case nil: problem("\(path).type", "required: one of \(kinds.joined(separator: ", "))")
            case .string(let name)?:
                kind = Manifest.Sink.Kind(rawValue: name)
                if kind == nil {
                    problem("\(path).type", "unknown sink type '\(name)'\(Suggestion.didYouMean(name, in: kinds)); "
                        + "sink types: \(kinds.joined(separator: ", "))")
                }
            case let other?: problem("\(path).type", "expected a string, found \(other.typeName)")
            }
            checkKeys(object, allowed: sinkKeys + (kind.flatMap { sinkTypeKeys[$0] } ?? []), path: path, report: problem)
            let sources = sinkSources(object["sources"], path: "\(path).sources", sourceIDs: sourceIDs, report: problem)
            let batch = integer(object["batch"], in: 1...10_000, "\(path).batch", problem)
            let maxRetries = integer(object["maxRetries"], in: 0...10, "\(path).maxRetries", problem)
            let timeout = seconds(object["timeoutSeconds"], "\(path).timeoutSeconds", problem)
            if let kind { checkSettings(kind, object, path: path, report: problem) }
            guard let id, let kind else { continue }
            sinks.append(Manifest.Sink(
                id: id, kind: kind, sources: sources, batch: batch ?? kind.defaultBatch,
                timeoutSeconds: timeout ?? Manifest.Sink.defaultTimeoutSeconds,
                maxRetries: maxRetries ?? SinkRetryPolicy.defaultMaxRetries,
                settings: object.filter { sinkTypeKeys[kind]?.contains($0.key) == true }, index: index))
        }
        return sinks
    }

    private static func sinkSources(
        _ value: JSONValue?, path: String, sourceIDs: [String], report problem: (String, String) -> Void
    ) -> [String]? {
        guard let value else { return nil }
        guard case .array(let entries) = value, !entries.isEmpty else {
            problem(path, "expected a non-empty array of source ids, found \(value.compactJSON)")
            return nil
        }
        var ids: [String] = []
        for (index, entry) in entries.enumerated() {
            guard case .string(let id) = entry else {
                problem("\(path)[\(index)]", "expected a source id, found \(entry.typeName)")
                continue
            }
            if !sourceIDs.contains(id) {
                problem("\(path)[\(index)]", "unknown source '\(id)'\(Suggestion.didYouMean(id, in: sourceIDs)); "
                    + "the manifest defines: \(sourceIDs.joined(separator: ", "))")
            }
            ids.append(id)
        }
        return ids
    }

    /// The type's own keys: shapes only. What needs `${VAR}`s resolved (a URL's scheme and host) is checked
    /// when the sink is built (`SinkDirectory`).
    private static func checkSettings(
        _ kind: Manifest.Sink.Kind, _ object: JSONObject, path: String, report problem: (String, String) -> Void
    ) {
        let references = SecretReferences(
            .object(object), secretKeys: kind.secretKeys, secretMemberKeys: kind.secretMemberKeys, path: path)
        for reference in references.problems { problem(reference.path, reference.message) }
        func string(_ key: String, required: Bool) {
            switch object[key] {
            case nil: if required { problem("\(path).\(key)", "required for a \(kind.rawValue) sink") }
            case .string(let text)?: if text.isEmpty { problem("\(path).\(key)", "must not be empty") }
            case .object? where kind.secretKeys.contains(key): break  // a secret reference, checked above
            case let other?: problem("\(path).\(key)", "expected a string, found \(other.typeName)")
            }
        }
        switch kind {
        case .webhook:
            string("url", required: true)
            string("secret", required: false)
        case .ntfy:
            string("url", required: true)
            string("token", required: false)
            switch object["priority"] {
            case nil: break
            case .int(let number)? where (1...5).contains(number): break
            case .string(let name)? where NtfyTransport.priorities[name] != nil: break
            case let other?:
                problem("\(path).priority", "expected 1 to 5 or one of \(NtfyTransport.priorities.keys.sorted().joined(separator: ", ")), "
                    + "found \(other.compactJSON)")
            }
            if let tags = object["tags"], tags.arrayValue?.allSatisfy({ $0.stringValue?.isEmpty == false }) != true {
                problem("\(path).tags", "expected an array of tag names (ntfy shows emoji for some), found \(tags.compactJSON)")
            }
        case .slack:
            string("url", required: true)
            string("template", required: false)
        case .email:
            for key in ["url", "from"] { string(key, required: true) }
            for key in ["username", "password", "subject", "caFile"] { string(key, required: false) }
            if let from = object["from"]?.stringValue, !Self.isAddress(from) {
                problem("\(path).from", "expected an address such as aggregate@example.org, found '\(from)'")
            }
            switch object["to"] {
            case nil: problem("\(path).to", "required for an email sink: a list of addresses")
            case .array(let addresses)? where !addresses.isEmpty:
                for (index, address) in addresses.enumerated() where !(address.stringValue.map(Self.isAddress) ?? false) {
                    problem("\(path).to[\(index)]", "expected an address such as me@example.org, found \(address.compactJSON)")
                }
            case let other?: problem("\(path).to", "expected a non-empty list of addresses, found \(other.compactJSON)")
            }
            if let digest = object["digest"], digest.stringValue.flatMap({ Manifest.Sink.digestPeriods[$0] }) == nil {
                problem("\(path).digest", "expected \"hourly\" or \"daily\" (leave it out for one message per run), "
                    + "found \(digest.compactJSON)")
            }
        case .exec:
            for key in ["command", "args"] {
                switch object[key] {
                case nil: if key == "command" { problem("\(path).command", "required for an exec sink: the program and its arguments") }
                case .array(let parts)? where parts.allSatisfy({ $0.stringValue != nil }):
                    if key == "command", parts.first?.stringValue?.isEmpty ?? true {
                        problem("\(path).command", "needs the program to run as its first element")
                    }
                case let other?: problem("\(path).\(key)", "expected an array of strings, found \(other.compactJSON)")
                }
            }
            if let env = object["env"] {
                // A value may be a secret reference (checked above).
                guard case .object(let members) = env, members.values.allSatisfy({ $0.stringValue != nil || $0.objectValue != nil })
                else {
                    problem("\(path).env", "expected an object of strings, found \(env.compactJSON)")
                    return
                }
            }
        }
    }

    /// An address SMTP can take: `local@domain`, without spaces, angle brackets or line breaks. `${VAR}`s are
    /// checked when the sink runs.
    static func isAddress(_ text: String) -> Bool {
        if text.contains("${") { return true }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && !text.unicodeScalars.contains { $0.value <= 0x20 || "<>,;\"".unicodeScalars.contains($0) }
    }

    private static func integer(
        _ value: JSONValue?, in range: ClosedRange<Int>, _ path: String, _ report: (String, String) -> Void
    ) -> Int? {
        guard let value else { return nil }
        guard case .int(let number) = value, range.contains(number) else {
            report(path, "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(value.compactJSON)")
            return nil
        }
        return number
    }
}
