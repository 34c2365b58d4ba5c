import Domain
import Foundation
import HTTPClient

// MARK: - Data Transfer Object

/// One element of `GET /repos/{owner}/{repo}/issues`. Only what the Domain needs is decoded; everything the
/// service may leave out or send as null is optional. Older responses (GitHub until 2016, GitHub Enterprise,
/// recordings of them) have one `assignee` object and no `assignees` array, no `state_reason`, `locked` or
/// `draft`, and a `pull_request` object on every item whose `html_url`/`diff_url`/`patch_url` are non-null
/// only on pull requests (no `url` at all).
struct IssueResponseDTO: Decodable {
    struct UserDTO: Decodable {
        let login: String
    }

    struct LabelDTO: Decodable {
        let name: String
        let color: String?
    }

    struct MilestoneDTO: Decodable {
        let title: String
    }

    /// Present on pull requests. Old responses put one with null URLs on every item, so only a non-null URL
    /// marks a pull request: `url` today, `html_url` (with `diff_url`, `patch_url`) in the older schema.
    struct PullRequestDTO: Decodable {
        let url: String?
        let htmlURL: String?
        let diffURL: String?
        let patchURL: String?

        enum CodingKeys: String, CodingKey {
            case url
            case htmlURL = "html_url"
            case diffURL = "diff_url"
            case patchURL = "patch_url"
        }

        var marksPullRequest: Bool { url != nil || htmlURL != nil || diffURL != nil || patchURL != nil }
    }

    let number: Int
    let title: String
    let state: String
    let stateReason: String?
    let labels: [LabelDTO]?
    let user: UserDTO?
    let assignee: UserDTO?
    let assignees: [UserDTO]?
    let milestone: MilestoneDTO?
    let comments: Int?
    let createdAt: Date
    let updatedAt: Date
    let closedAt: Date?
    let htmlURL: URL?
    let pullRequest: PullRequestDTO?
    let draft: Bool?

    enum CodingKeys: String, CodingKey {
        case number, title, state, labels, user, assignee, assignees, milestone, comments, draft
        case stateReason = "state_reason"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case closedAt = "closed_at"
        case htmlURL = "html_url"
        case pullRequest = "pull_request"
    }

    var isPullRequest: Bool { pullRequest?.marksPullRequest ?? false }

    /// `assignees`; the older schema's single `assignee` when that array is absent (or empty beside it).
    var assigneeLogins: [String] {
        if let assignees, !assignees.isEmpty { return assignees.map(\.login) }
        return assignee.map { [$0.login] } ?? []
    }

    /// A decoder for GitHub's `2022-07-19T04:38:38Z` timestamps.
    static let decoder = JSONDecoder.iso8601Dates()
}

// MARK: - Mappings to Domain

extension IssueResponseDTO {
    func toDomain(repository: RepositoryRef) -> TrackerIssue {
        TrackerIssue(
            repository: repository,
            number: number,
            title: title,
            state: state,
            stateReason: stateReason,
            labels: (labels ?? []).map { label in
                TrackerIssue.Label(name: label.name, color: label.color.flatMap { $0.isEmpty ? nil : $0 })
            },
            author: user?.login,
            assignees: assigneeLogins,
            milestone: milestone?.title,
            commentCount: comments ?? 0,
            createdAt: createdAt,
            updatedAt: updatedAt,
            closedAt: closedAt,
            url: htmlURL,
            isPullRequest: isPullRequest,
            // `draft` means something only on pull requests.
            isDraft: isPullRequest ? draft : nil)
    }
}
