import Foundation

/// Issues of one repository on a tracker. Pagination is the repository's business: it returns at most
/// `query.maxItems` issues, newest first as the tracker orders them, with a warning when it left issues or pages
/// out.
public protocol IssueRepository: Sendable {
    /// Lists `repository`'s issues matching `query` and calls `completion` exactly once, from any thread, with the
    /// listing or a `SourceError` (a repository that does not exist is `notFound`). Stops soon after `cancellation`.
    func issues(
        in repository: RepositoryRef, matching query: IssueQuery, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<IssueListing, SourceError>) -> Void
    )
}
