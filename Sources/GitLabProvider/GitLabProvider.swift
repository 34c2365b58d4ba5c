import Domain
import Foundation
import HTTPClient
import ProviderKit

/// `"provider": "gitlab"`: issues of many GitLab projects at once (gitlab.com or a self-hosted instance) from
/// the REST API v4 (`GET {baseURL}/api/v4/projects/{path}/issues`, following the `Link: rel="next"` or
/// `X-Next-Page` pages).
///
///     { "id": "issues", "provider": "gitlab",
///       "options": { "projects": ["gitlab-org/gitlab-runner", "inkscape/inkscape"], "labels": ["bug"],
///                    "since": "7d", "token": "${GITLAB_TOKEN:-}" } }
///
/// The `github` provider's options and items: projects are fetched concurrently (the source's `concurrency`),
/// the pages of one project in sequence, reported in manifest order; a project that fails is a warning naming
/// it, the source fails only when every project did.
///
/// Items: `kind: "issue"`, `id` = `namespace/project#IID`, the same `fields` keys as GitHub's: `repository`,
/// `number` (the project's issue number, `iid`), `state` (`open` or `closed`, as GitHub writes them; GitLab's
/// `opened` is read as `open`), `labels` (`[{name, color}]`; GitLab lists names, so no colour), `author`,
/// `assignees`, `milestone`, `comments` (`user_notes_count`), `createdAt`, `updatedAt`, `closedAt`,
/// `isPullRequest` (always false: merge requests are not issues on GitLab).
public struct GitLabProvider: Provider {
    public static let defaultBaseURL = URL(string: "https://gitlab.com")!

    public init() {}

    public var name: String { "gitlab" }

    public var summary: String { "Issues of many GitLab projects, gitlab.com or self-hosted (token optional for public projects)" }

    public var options: [OptionSpec] {
        [
            OptionSpec("projects", "array of \"namespace/project\" paths", required: true,
                       help: "The projects whose issues to list, in output order (nested groups allowed: \"a/b/c\")."),
        ] + IssueTrackerOptions.filterSpecs(
            assigneeHelp: "Only issues assigned to this username.", creatorHelp: "Only issues opened by this username."
        ) + [
            IssueTrackerOptions.maxItemsSpec(per: "project"),
            OptionSpec("token", "string", secret: true,
                       help: "A GitLab access token, normally \"${GITLAB_TOKEN:-}\" (empty: anonymous, public projects only). "
                           + "Never printed."),
            OptionSpec("tokenType", "private|bearer", default: GitLabTokenType.privateToken.rawValue,
                       help: "How the token is sent: a personal, project or group access token as PRIVATE-TOKEN, "
                           + "an OAuth token as Authorization: Bearer."),
        ] + HTTPSourceOptions.specs(defaultBaseURL: Self.defaultBaseURL)
    }

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let projects = reader.require("projects", as: [ProjectOption].self)
        if let projects { IssueTrackerOptions.checkListedOnce(reader, "projects", projects.map(\.ref), noun: "project") }
        var query = IssueTrackerOptions.readFilters(reader, tracker: "GitLab")
        query.maxItems = IssueTrackerOptions.readMaxItems(reader)
        let token = IssueTrackerOptions.readToken(reader)
        let tokenType = reader.value("tokenType", as: GitLabTokenType.self) ?? .privateToken
        let http = HTTPSourceOptions.read(
            reader, defaultBaseURL: Self.defaultBaseURL, credentialOption: "token", hasCredential: token != nil)
        try reader.finish()
        guard let projects else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }

        let client = configuration.httpClient(http.clientConfiguration(for: configuration))
        let repository = GitLabIssueRepository(
            client: client, baseURL: http.baseURL, credential: token.map { GitLabCredential(token: $0, type: tokenType) })
        return FetchIssuesUseCase(repository: repository, repositories: projects.map(\.ref), query: query)
    }
}

/// How a token is sent.
public enum GitLabTokenType: String, Sendable, CaseIterable, OptionEnum {
    /// `PRIVATE-TOKEN: …`: personal, project and group access tokens.
    case privateToken = "private"
    /// `Authorization: Bearer …`: OAuth 2 tokens (and access tokens too).
    case bearer
}

/// A token and the header it goes in.
public struct GitLabCredential: Sendable, Hashable {
    public var token: String
    public var type: GitLabTokenType

    public init(token: String, type: GitLabTokenType) {
        self.token = token
        self.type = type
    }

    var header: (name: String, value: String) {
        switch type {
        case .privateToken: ("PRIVATE-TOKEN", token)
        case .bearer: ("Authorization", "Bearer \(token)")
        }
    }
}
