import Foundation

/// Issues of many repositories at once; each repository's issues in the tracker's order, repositories in
/// the order they were asked for.
public struct FetchIssuesUseCase: ItemSource {
    private let repository: any IssueRepository
    private let repositories: [RepositoryRef]
    private let query: IssueQuery

    /// Lists `query`'s issues of every repository of `repositories` through `repository`.
    public init(repository: any IssueRepository, repositories: [RepositoryRef], query: IssueQuery) {
        self.repository = repository
        self.repositories = repositories
        self.query = query
    }

    /// Lists the repositories, at most `context.concurrency` at once, emits their issues as items and finishes
    /// `receiver` once.
    public func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let (repository, repositories, query) = (self.repository, self.repositories, self.query)
        let labels = repositories.map(\.description)
        receiver.collect(labels, context: context) { index, done in
            repository.issues(in: repositories[index], matching: query, cancellation: context.cancellation) { result in
                if case .success(let listing) = result {
                    for warning in listing.warnings { receiver.warn("\(labels[index]): \(warning)") }
                }
                done(result.map { listing in listing.issues.prefix(query.maxItems).map { $0.toItem() } })
            }
        }
    }
}

extension TrackerIssue {
    /// Field keys are part of the output contract (docs/PROVIDERS.md, "issue" items).
    public func toItem() -> Item {
        var fields: JSONObject = [
            "repository": .string(repository.description),
            "number": .int(number),
            "state": .string(state),
            "labels": .array(labels.map { label in
                var object: JSONObject = ["name": .string(label.name)]
                object["color"] = label.color.map(JSONValue.string)
                return .object(object)
            }),
            "assignees": .array(assignees.map(JSONValue.string)),
            "comments": .int(commentCount),
            "createdAt": .string(ISO8601.string(from: createdAt)),
            "updatedAt": .string(ISO8601.string(from: updatedAt)),
            "isPullRequest": .bool(isPullRequest),
        ]
        fields["stateReason"] = stateReason.map(JSONValue.string)
        fields["author"] = author.map(JSONValue.string)
        fields["milestone"] = milestone.map(JSONValue.string)
        fields["closedAt"] = closedAt.map { .string(ISO8601.string(from: $0)) }
        fields["draft"] = isDraft.map(JSONValue.bool)
        let comments = commentCount == 1 ? "1 comment" : "\(commentCount) comments"
        return Item(
            kind: .issue,
            id: "\(repository)#\(number)",
            title: title,
            subtitle: "\(repository)#\(number) · \(state) · \(comments)",
            url: url,
            date: updatedAt,
            fields: fields
        )
    }
}
