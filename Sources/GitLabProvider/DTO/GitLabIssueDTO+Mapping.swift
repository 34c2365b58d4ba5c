import Domain
import Foundation
import HTTPClient

// MARK: - Data Transfer Object

/// One element of `GET /api/v4/projects/{id}/issues`. Only what the Domain needs is decoded; what GitLab may
/// leave out or send as null is optional. `labels` are names, or objects with a colour when the request asks
/// `with_labels_details=true`; both are read. Instances before GitLab 11 send one `assignee`, no `assignees`.
struct GitLabIssueDTO: Decodable {
    struct UserDTO: Decodable {
        let username: String
    }

    struct LabelDTO: Decodable {
        let name: String
        let color: String?

        init(from decoder: any Decoder) throws {
            if let name = try? decoder.singleValueContainer().decode(String.self) {
                self.name = name
                color = nil
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            color = try container.decodeIfPresent(String.self, forKey: .color)
        }

        enum CodingKeys: String, CodingKey { case name, color }
    }

    struct MilestoneDTO: Decodable {
        let title: String
    }

    let iid: Int
    let title: String
    let state: String
    let labels: [LabelDTO]?
    let author: UserDTO?
    let assignee: UserDTO?
    let assignees: [UserDTO]?
    let milestone: MilestoneDTO?
    let userNotesCount: Int?
    let createdAt: Date
    let updatedAt: Date
    let closedAt: Date?
    let webURL: URL?

    enum CodingKeys: String, CodingKey {
        case iid, title, state, labels, author, assignee, assignees, milestone
        case userNotesCount = "user_notes_count"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case closedAt = "closed_at"
        case webURL = "web_url"
    }

    /// A decoder for GitLab's `2016-01-04T15:31:46.176Z` timestamps (fractions of a second included).
    static let decoder = JSONDecoder.iso8601Dates()
}

// MARK: - Mappings to Domain

extension GitLabIssueDTO {
    func toDomain(project: RepositoryRef) -> TrackerIssue {
        let assigneeNames = (assignees?.isEmpty == false ? assignees : assignee.map { [$0] }) ?? []
        return TrackerIssue(
            repository: project,
            number: iid,
            title: title,
            // GitHub's words, so `state` means one thing across trackers.
            state: state == "opened" ? "open" : state,
            labels: (labels ?? []).map { label in
                TrackerIssue.Label(name: label.name, color: label.color.map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
                    .flatMap { $0.isEmpty ? nil : $0 })
            },
            author: author?.username,
            assignees: assigneeNames.map(\.username),
            milestone: milestone?.title,
            commentCount: userNotesCount ?? 0,
            createdAt: createdAt,
            updatedAt: updatedAt,
            closedAt: closedAt,
            url: webURL)
    }
}
