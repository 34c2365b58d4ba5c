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
    public static let defaultMaxItems = IssueTrackerOptions.defaultMaxItems
    public static let maxItemsLimit = IssueTrackerOptions.maxItemsLimit

    public init() {}

    public var name: String { "github" }

    public var summary: String { "Issues of many GitHub repositories (token optional: public repos work without one)" }

    public var options: [OptionSpec] {
        [
            OptionSpec("repos", "array of \"owner/name\" strings", required: true,
                       help: "The repositories whose issues to list, in output order."),
        ] + IssueTrackerOptions.filterSpecs(
            assigneeHelp: "Only issues assigned to this login (\"none\" or \"*\" allowed).",
            creatorHelp: "Only issues opened by this login."
        ) + [
            OptionSpec("includePullRequests", "boolean", default: "false",
                       help: "Keep pull requests (GitHub lists them with issues); they get fields.isPullRequest."),
            IssueTrackerOptions.maxItemsSpec(per: "repository"),
            OptionSpec("token", "string", secret: true,
                       help: "A GitHub token, normally \"${GITHUB_TOKEN:-}\" (empty: anonymous, lower rate limit). "
                           + "Sent only as an Authorization header; never printed."),
        ] + HTTPSourceOptions.specs(defaultBaseURL: Self.defaultBaseURL)
    }

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let repositories = reader.require("repos", as: [RepositoryOption].self)
        if let repositories { IssueTrackerOptions.checkListedOnce(reader, "repos", repositories.map(\.ref), noun: "repository") }
        var query = IssueTrackerOptions.readFilters(reader, tracker: "GitHub")
        query.includePullRequests = reader.value("includePullRequests", as: Bool.self) ?? false
        query.maxItems = IssueTrackerOptions.readMaxItems(reader)
        let token = IssueTrackerOptions.readToken(reader)
        let http = HTTPSourceOptions.read(
            reader, defaultBaseURL: Self.defaultBaseURL, credentialOption: "token", hasCredential: token != nil)
        try reader.finish()
        guard let repositories else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }

        let client = configuration.httpClient(http.clientConfiguration(for: configuration))
        let repository = GitHubIssueRepository(
            client: client, baseURL: http.baseURL, token: token, logger: configuration.logger, sourceID: configuration.id)
        return FetchIssuesUseCase(repository: repository, repositories: repositories.map(\.ref), query: query)
    }
}
