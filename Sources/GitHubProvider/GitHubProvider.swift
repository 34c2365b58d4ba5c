import Domain
import Foundation
import HTTPClient
import ProviderKit

/// `"provider": "github"`: issues of many GitHub repositories at once from the REST API
/// (`GET {baseURL}/repos/{owner}/{repo}/issues`, following `Link: rel="next"` pages).
///
///     { "id": "issues", "provider": "github",
///       "options": { "repos": ["apple/swift", "swiftlang/swift-format"], "labels": ["bug"],
///                    "since": "7d", "token": "${GITHUB_TOKEN:-}" } }
///
/// Repositories are fetched concurrently (the source's `concurrency`), the pages of one repository in
/// sequence, and reported in manifest order. A repository that fails (404, say) is a warning naming it and
/// the source stays `ok` with the others; the source is `error` only when every repository failed.
///
/// Items: `kind: "issue"`, `id` = `owner/name#N`, `title` = the issue title, `subtitle` like
/// `apple/swift#123 · open · 4 comments`, `url` = the issue's page, `date` = last update. `fields` keys:
/// `repository`, `number`, `state`, `stateReason`, `labels` (`[{name, color}]`), `author`, `assignees`,
/// `milestone`, `comments`, `createdAt`, `updatedAt`, `closedAt`, `isPullRequest`, `draft` (pull requests only).
public struct GitHubProvider: Provider {
    public static let defaultBaseURL = URL(string: "https://api.github.com")!
    public static let defaultMaxItems = 50
    public static let maxItemsLimit = 10_000

    public init() {}

    public var name: String { "github" }

    public var summary: String { "Issues of many GitHub repositories (token optional: public repos work without one)" }

    public var options: [OptionSpec] {
        [
            OptionSpec("repos", "array of \"owner/name\" strings", required: true,
                       help: "The repositories whose issues to list, in output order."),
            OptionSpec("state", "open|closed|all", default: IssueQuery.State.open.rawValue, help: "Which issues to list."),
            OptionSpec("labels", "array of strings", help: "Only issues carrying every one of these labels."),
            OptionSpec("since", "ISO 8601 date or relative (\"7d\", \"24h\", \"30m\")", shape: .string,
                       help: "Only issues updated at or after this time."),
            OptionSpec("assignee", "string", help: "Only issues assigned to this login (\"none\" or \"*\" allowed)."),
            OptionSpec("creator", "string", help: "Only issues opened by this login."),
            OptionSpec("includePullRequests", "boolean", default: "false",
                       help: "Keep pull requests (GitHub lists them with issues); they get fields.isPullRequest."),
            OptionSpec("maxItems", "integer 1–\(Self.maxItemsLimit)", default: String(Self.defaultMaxItems),
                       identity: .tuning, help: "Issues per repository; pages are fetched until this many are kept."),
            OptionSpec("token", "string", secret: true,
                       help: "A GitHub token, normally \"${GITHUB_TOKEN:-}\" (empty: anonymous, lower rate limit). "
                           + "Sent only as an Authorization header; never printed."),
        ] + HTTPSourceOptions.specs(defaultBaseURL: Self.defaultBaseURL)
    }

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let repositories = reader.require("repos", as: [RepositoryOption].self)
        if let repositories {
            if repositories.isEmpty { reader.problem("repos", "name at least one repository") }
            var seen: Set<String> = []
            for (index, repository) in repositories.enumerated()
            where !seen.insert(repository.ref.description.lowercased()).inserted {
                reader.problem("repos[\(index)]", "'\(repository.ref)' is listed twice")
            }
        }
        let state = reader.value("state", as: IssueQuery.State.self) ?? .open
        let labels = reader.value("labels", as: [String].self) ?? []
        for (index, label) in labels.enumerated() {
            if label.trimmingCharacters(in: .whitespaces).isEmpty {
                reader.problem("labels[\(index)]", "a label cannot be empty")
            } else if label.contains(",") {
                reader.problem("labels[\(index)]", "a label cannot contain ',' (GitHub separates labels with commas)")
            }
        }
        let since = reader.value("since", as: SinceOption.self)
        let assignee = nonEmpty(reader, "assignee")
        let creator = nonEmpty(reader, "creator")
        let includePullRequests = reader.value("includePullRequests", as: Bool.self) ?? false
        let maxItems = reader.value("maxItems", as: Int.self) ?? Self.defaultMaxItems
        if !(1...Self.maxItemsLimit).contains(maxItems) {
            reader.problem("maxItems", "must be between 1 and \(Self.maxItemsLimit), found \(maxItems)")
        }
        // Empty means anonymous, so `"${GITHUB_TOKEN:-}"` works with the variable unset.
        let token = reader.value("token", as: String.self).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .flatMap { $0.isEmpty ? nil : $0 }
        if let token, token.contains(where: { $0.isWhitespace }) {
            reader.problem("token", "contains whitespace; give the token alone, without \"Bearer\"")
        }
        let http = HTTPSourceOptions.read(
            reader, defaultBaseURL: Self.defaultBaseURL, credentialOption: "token", hasCredential: token != nil)
        try reader.finish()
        guard let repositories else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }

        let query = IssueQuery(
            state: state, labels: labels, since: since?.date, assignee: assignee, creator: creator,
            includePullRequests: includePullRequests, maxItems: maxItems)
        let client = configuration.httpClient(http.clientConfiguration(for: configuration))
        let repository = GitHubIssueRepository(
            client: client, baseURL: http.baseURL, token: token, logger: configuration.logger, sourceID: configuration.id)
        return FetchIssuesUseCase(repository: repository, repositories: repositories.map(\.ref), query: query)
    }

    private func nonEmpty(_ reader: OptionsReader, _ key: String) -> String? {
        guard let value = reader.value(key, as: String.self) else { return nil }
        if value.trimmingCharacters(in: .whitespaces).isEmpty {
            reader.problem(key, "is empty; leave it out to list everyone's issues")
            return nil
        }
        return value
    }
}
