import Domain
import Foundation

/// The options the issue-tracker providers (`github`, `gitlab`) share, specified and read one way: `state`,
/// `labels`, `since`, `assignee`, `creator`, `maxItems`, an optional `token`, and a list of repositories each
/// named once. A manifest moves between trackers with the same filters.
public enum IssueTrackerOptions {
    /// How many issues a repository or project keeps when `maxItems` is not given.
    public static let defaultMaxItems = 50
    /// The largest `maxItems` accepted; a larger one is a problem at `maxItems`.
    public static let maxItemsLimit = 10_000

    /// `state`, `labels`, `since`, `assignee`, `creator`, in that order.
    public static func filterSpecs(assigneeHelp: String, creatorHelp: String) -> [OptionSpec] {
        [
            OptionSpec("state", "open|closed|all", default: IssueQuery.State.open.rawValue, help: "Which issues to list."),
            OptionSpec("labels", "array of strings", help: "Only issues carrying every one of these labels."),
            OptionSpec("since", "ISO 8601 date or relative (\"7d\", \"24h\", \"30m\")", shape: .string,
                       help: "Only issues updated at or after this time."),
            OptionSpec("assignee", "string", help: assigneeHelp),
            OptionSpec("creator", "string", help: creatorHelp),
        ]
    }

    /// `maxItems`, counted per `unit` (`repository`, `project`).
    public static func maxItemsSpec(per unit: String) -> OptionSpec {
        OptionSpec("maxItems", "integer 1–\(maxItemsLimit)", default: String(defaultMaxItems), identity: .tuning,
                   help: "Issues per \(unit); pages are fetched until this many are kept.")
    }

    /// Reads the filters into a query (`maxItems` and pull requests left at their defaults). `tracker` names the
    /// service in the problem about commas in labels.
    public static func readFilters(_ reader: OptionsReader, tracker: String) -> IssueQuery {
        let state = reader.value("state", as: IssueQuery.State.self) ?? .open
        let labels = reader.value("labels", as: [String].self) ?? []
        for (index, label) in labels.enumerated() {
            if label.trimmingCharacters(in: .whitespaces).isEmpty {
                reader.problem("labels[\(index)]", "a label cannot be empty")
            } else if label.contains(",") {
                reader.problem("labels[\(index)]", "a label cannot contain ',' (\(tracker) separates labels with commas)")
            }
        }
        let since = reader.value("since", as: SinceOption.self)
        return IssueQuery(
            state: state, labels: labels, since: since?.date, assignee: nonEmpty(reader, "assignee"),
            creator: nonEmpty(reader, "creator"))
    }

    /// `maxItems`, or ``defaultMaxItems`` when absent; a value outside `1...maxItemsLimit` is recorded as a problem
    /// (and returned as given, for the caller to ignore once `finish()` throws).
    public static func readMaxItems(_ reader: OptionsReader) -> Int {
        let maxItems = reader.value("maxItems", as: Int.self) ?? defaultMaxItems
        if !(1...maxItemsLimit).contains(maxItems) {
            reader.problem("maxItems", "must be between 1 and \(maxItemsLimit), found \(maxItems)")
        }
        return maxItems
    }

    /// `token`: empty means anonymous, so `"${GITHUB_TOKEN:-}"` works with the variable unset.
    public static func readToken(_ reader: OptionsReader) -> String? {
        let token = reader.value("token", as: String.self).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .flatMap { $0.isEmpty ? nil : $0 }
        if let token, token.contains(where: { $0.isWhitespace }) {
            reader.problem("token", "contains whitespace; give the token alone, without \"Bearer\"")
        }
        return token
    }

    /// The repositories of `key`, each named once (case-insensitively); at least one.
    public static func checkListedOnce(_ reader: OptionsReader, _ key: String, _ refs: [RepositoryRef], noun: String) {
        if refs.isEmpty { reader.problem(key, "name at least one \(noun)") }
        var seen: Set<String> = []
        for (index, ref) in refs.enumerated() where !seen.insert(ref.description.lowercased()).inserted {
            reader.problem("\(key)[\(index)]", "'\(ref)' is listed twice")
        }
    }

    private static func nonEmpty(_ reader: OptionsReader, _ key: String) -> String? {
        guard let value = reader.value(key, as: String.self) else { return nil }
        if value.trimmingCharacters(in: .whitespaces).isEmpty {
            reader.problem(key, "is empty; leave it out to list everyone's issues")
            return nil
        }
        return value
    }
}
