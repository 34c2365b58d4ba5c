import Foundation

/// A repository on an issue tracker, as `owner/name`.
public struct RepositoryRef: Sendable, Hashable, CustomStringConvertible {
    public var owner: String
    public var name: String

    public init(owner: String, name: String) {
        self.owner = owner
        self.name = name
    }

    public var description: String { "\(owner)/\(name)" }
}

/// Which issues to list.
public struct IssueQuery: Sendable, Hashable {
    public enum State: String, Sendable, Hashable, CaseIterable, Codable { case open, closed, all }

    public var state: State
    /// Every label must match.
    public var labels: [String]
    /// Only issues updated at or after this time.
    public var since: Date?
    public var assignee: String?
    public var creator: String?
    public var includePullRequests: Bool
    /// Per repository.
    public var maxItems: Int

    public init(
        state: State = .open, labels: [String] = [], since: Date? = nil, assignee: String? = nil,
        creator: String? = nil, includePullRequests: Bool = false, maxItems: Int = 50
    ) {
        self.state = state
        self.labels = labels
        self.since = since
        self.assignee = assignee
        self.creator = creator
        self.includePullRequests = includePullRequests
        self.maxItems = maxItems
    }
}

/// What one repository's listing brought: its issues (at most `IssueQuery.maxItems`), and what the run is
/// told about it: pages left unread, issues past `maxItems` the tracker has but that were not fetched.
public struct IssueListing: Sendable, Hashable {
    public var issues: [TrackerIssue]
    public var warnings: [String]

    public init(issues: [TrackerIssue], warnings: [String] = []) {
        self.issues = issues
        self.warnings = warnings
    }

    /// The listing's first `maxItems` issues, with a warning when it had more or the tracker lists more (`more`:
    /// a next page).
    public func cut(at maxItems: Int, more: Bool) -> IssueListing {
        guard issues.count > maxItems || more else { return self }
        return IssueListing(
            issues: Array(issues.prefix(maxItems)),
            warnings: warnings + ["\(maxItems) issues kept (maxItems); the tracker lists more, which were not fetched"])
    }

    /// The listing with `more` warnings after its own.
    public func adding(_ more: [String]) -> IssueListing {
        IssueListing(issues: issues, warnings: warnings + more)
    }
}

/// An issue (or pull request) on a tracker. (Not `Issue`: that name belongs to Swift Testing in every test target.)
public struct TrackerIssue: Sendable, Hashable {
    public struct Label: Sendable, Hashable {
        public var name: String
        /// Hex colour without `#`, when the tracker has one.
        public var color: String?

        public init(name: String, color: String? = nil) {
            self.name = name
            self.color = color
        }
    }

    public var repository: RepositoryRef
    public var number: Int
    public var title: String
    public var state: String
    public var stateReason: String?
    public var labels: [Label]
    public var author: String?
    public var assignees: [String]
    public var milestone: String?
    public var commentCount: Int
    public var createdAt: Date
    public var updatedAt: Date
    public var closedAt: Date?
    public var url: URL?
    public var isPullRequest: Bool
    public var isDraft: Bool?

    public init(
        repository: RepositoryRef, number: Int, title: String, state: String, stateReason: String? = nil,
        labels: [Label] = [], author: String? = nil, assignees: [String] = [], milestone: String? = nil,
        commentCount: Int = 0, createdAt: Date, updatedAt: Date, closedAt: Date? = nil, url: URL? = nil,
        isPullRequest: Bool = false, isDraft: Bool? = nil
    ) {
        self.repository = repository
        self.number = number
        self.title = title
        self.state = state
        self.stateReason = stateReason
        self.labels = labels
        self.author = author
        self.assignees = assignees
        self.milestone = milestone
        self.commentCount = commentCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.closedAt = closedAt
        self.url = url
        self.isPullRequest = isPullRequest
        self.isDraft = isDraft
    }
}

extension [TrackerIssue] {
    /// Appends the issues of the next page that are not kept already. Trackers page by offset into a list that
    /// can change while it is read: an issue opened or updated in between pushes the others down, and the last
    /// issues of one page come again at the top of the next.
    public mutating func appendNew(_ page: some Sequence<TrackerIssue>) {
        var kept = Set(lazy.map { IssueKey(repository: $0.repository, number: $0.number) })
        for issue in page where kept.insert(IssueKey(repository: issue.repository, number: issue.number)).inserted {
            append(issue)
        }
    }
}

private struct IssueKey: Hashable {
    let repository: RepositoryRef
    let number: Int
}
