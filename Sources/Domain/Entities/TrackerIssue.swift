import Foundation

/// A repository on an issue tracker, as `owner/name`.
public struct RepositoryRef: Sendable, Hashable, CustomStringConvertible {
    /// The account or group that owns the repository.
    public var owner: String
    /// The repository's name (on GitLab, the rest of the project's path).
    public var name: String

    /// `owner/name`.
    public init(owner: String, name: String) {
        self.owner = owner
        self.name = name
    }

    /// `owner/name`.
    public var description: String { "\(owner)/\(name)" }
}

/// Which issues to list.
public struct IssueQuery: Sendable, Hashable {
    /// Which issues by state.
    public enum State: String, Sendable, Hashable, CaseIterable, Codable {
        /// Open issues only.
        case open
        /// Closed issues only.
        case closed
        /// Both.
        case all
    }

    /// Open, closed or all issues.
    public var state: State
    /// Every label must match.
    public var labels: [String]
    /// Only issues updated at or after this time.
    public var since: Date?
    /// Only issues assigned to this user, when given.
    public var assignee: String?
    /// Only issues opened by this user, when given.
    public var creator: String?
    /// Whether pull (merge) requests are listed with the issues.
    public var includePullRequests: Bool
    /// Per repository.
    public var maxItems: Int

    /// A query; open issues, no filter and 50 per repository unless given.
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
    /// The issues, in the tracker's order.
    public var issues: [TrackerIssue]
    /// What the run is told about the listing (for the source's warnings).
    public var warnings: [String]

    /// A listing; no warning unless given.
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
    /// A label on an issue.
    public struct Label: Sendable, Hashable {
        /// The label's name.
        public var name: String
        /// Hex colour without `#`, when the tracker has one.
        public var color: String?

        /// A label; its colour when the tracker gives one.
        public init(name: String, color: String? = nil) {
            self.name = name
            self.color = color
        }
    }

    /// The repository the issue belongs to.
    public var repository: RepositoryRef
    /// The issue's number within its repository.
    public var number: Int
    /// The issue's title.
    public var title: String
    /// The issue's state as the tracker writes it (`open`, `closed`, …).
    public var state: String
    /// Why it was closed (`completed`, `not_planned`), when the tracker says.
    public var stateReason: String?
    /// Its labels, in the tracker's order.
    public var labels: [Label]
    /// Who opened it, if known.
    public var author: String?
    /// Who it is assigned to.
    public var assignees: [String]
    /// Its milestone's title, if it has one.
    public var milestone: String?
    /// How many comments it has.
    public var commentCount: Int
    /// When it was opened.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
    /// When it was closed, if it is.
    public var closedAt: Date?
    /// Its page on the tracker, for people.
    public var url: URL?
    /// Whether it is a pull (merge) request.
    public var isPullRequest: Bool
    /// Whether a pull request is a draft; nil for issues and when the tracker does not say.
    public var isDraft: Bool?

    /// An issue; optional parts absent unless given.
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
