import Domain
import Foundation
import HTTPClient
import Logging

/// Issues of GitHub repositories from the REST API: `GET {baseURL}/repos/{owner}/{repo}/issues`, then the
/// `Link` header's `rel="next"` pages (`/repositories/{id}/issues?page=N`, followed as given) one after
/// another until `maxItems` issues are kept or the last page.
///
/// Pull requests come back in the same list; unless the query includes them they are dropped before
/// counting, so `maxItems` counts issues. With `--verbose` one line per repository reports the quota left.
public struct GitHubIssueRepository {
    /// GitHub's largest page.
    public static let maxPageSize = 100

    private let client: any HTTPFetching
    private let baseURL: URL
    private let token: String?
    private let logger: Logger
    private let sourceID: String?

    /// - Parameter token: sent as `Authorization: Bearer …` when set (nil or empty: anonymous).
    public init(
        client: any HTTPFetching, baseURL: URL, token: String? = nil,
        logger: Logger = Logger(label: "aggregate.github", factory: { _ in SwiftLogNoOpLogHandler() }),
        sourceID: String? = nil
    ) {
        self.client = client
        self.baseURL = baseURL
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.logger = logger
        self.sourceID = sourceID
    }

    /// The page size asked for. When every item counts (pull requests included) a page need not be larger
    /// than `maxItems`; when pull requests are dropped, full pages save requests on repositories where they
    /// outnumber issues.
    static func pageSize(for query: IssueQuery) -> Int {
        query.includePullRequests ? min(maxPageSize, max(1, query.maxItems)) : maxPageSize
    }

    func firstPageRequest(for repository: RepositoryRef, matching query: IssueQuery) -> HTTPRequest {
        var items = [URLQueryItem(name: "state", value: query.state.rawValue)]
        if !query.labels.isEmpty { items.append(URLQueryItem(name: "labels", value: query.labels.joined(separator: ","))) }
        if let since = query.since { items.append(URLQueryItem(name: "since", value: ISO8601.string(from: since))) }
        if let assignee = query.assignee { items.append(URLQueryItem(name: "assignee", value: assignee)) }
        if let creator = query.creator { items.append(URLQueryItem(name: "creator", value: creator)) }
        items.append(URLQueryItem(name: "per_page", value: String(Self.pageSize(for: query))))
        let path = "/repos/\(Self.pathSegment(repository.owner))/\(Self.pathSegment(repository.name))/issues"
        return request(HTTPRequest.url(baseURL, path: path, query: items))
    }

    func request(_ url: URL) -> HTTPRequest {
        var headers: HTTPHeaders = ["Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return HTTPRequest(.get, url: url, headers: headers, secrets: token.map { [$0] } ?? [])
    }

    private static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? text
    }
}

extension GitHubIssueRepository: IssueRepository {
    public func issues(
        in repository: RepositoryRef, matching query: IssueQuery, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<IssueListing, SourceError>) -> Void
    ) {
        PageWalk.run(
            firstPageRequest(for: repository, matching: query), kept: IssueListing(issues: []), client: client,
            cancellation: cancellation, request: { request($0) },
            step: { response, kept in nextStep(after: response, kept: kept, of: repository, matching: query) }
        ) { result, warnings, last in
            logQuota(last, repository: repository)
            completion(result.map { $0.adding(warnings) })
        }
    }

    private func nextStep(
        after response: HTTPResponse, kept: IssueListing, of repository: RepositoryRef, matching query: IssueQuery
    ) -> Result<PageWalk.Step<IssueListing>, SourceError> {
        if let error = statusError(response, secrets: token.map { [$0] } ?? []) { return .failure(error) }
        let decoded = response.decode([IssueResponseDTO].self, using: IssueResponseDTO.decoder)
        guard case .success(let dtos) = decoded else { return decoded.map { _ in .done(kept) } }
        var kept = kept
        let listed = dtos.lazy.filter { query.includePullRequests || !$0.isPullRequest }
        kept.issues.appendNew(listed.map { $0.toDomain(repository: repository) })
        // An empty page would never end (a link back to a page already read ends the walk).
        let next = dtos.isEmpty ? nil : LinkHeader(response.headers.values(for: "Link"), relativeTo: response.url).next
        if kept.issues.count >= query.maxItems { return .success(.done(kept.cut(at: query.maxItems, more: next != nil))) }
        guard let next else { return .success(.done(kept)) }
        if token != nil, !next.hasSameOrigin(as: baseURL) {
            return .success(.stop(kept, reason: SourceError(.badResponse,
                "the next-page link points to \(next.host ?? "another host"), not \(baseURL.host ?? "the API host"); "
                    + "not following it with the token")))
        }
        return .success(.next(next, kept))
    }

    /// The HTTP layer's status mapping, with what a GitHub status means for a repository spelled out.
    private func statusError(_ response: HTTPResponse, secrets: [String]) -> SourceError? {
        guard var error = response.statusError(
            serviceMessage: GitHubErrorDTO.message(in: response.body), secrets: secrets) else { return nil }
        switch (response.status, error.kind) {
        case (404, _):
            error.message += token == nil
                ? " (no such repository, or it is private: set a token that can read it)"
                : " (no such repository, or the token cannot read it)"
        case (401, _):
            error.message += token == nil
                ? " (the service wants a token: set \"token\", normally to \"${GITHUB_TOKEN}\")"
                : " (the token was refused: it is invalid, expired or revoked)"
        case (403, .unauthorized):
            error.message += " (the token lacks access to this repository)"
        default:
            break
        }
        return error
    }

    /// `--verbose`: the quota GitHub reports on the last response of a repository.
    private func logQuota(_ response: HTTPResponse?, repository: RepositoryRef) {
        guard let response, let remaining = response.rateLimitRemaining else { return }
        var text = "GitHub quota after \(repository): \(remaining)"
        if let limit = response.headers["X-RateLimit-Limit"]?.trimmingCharacters(in: .whitespaces) {
            text += " of \(limit)"
        }
        text += " requests left"
        if let resource = response.headers["X-RateLimit-Resource"]?.trimmingCharacters(in: .whitespaces) {
            text += " (\(resource))"
        }
        if response.headers.contains("X-RateLimit-Reset") { text += ", " + response.rateLimitResetDescription() }
        var metadata: Logger.Metadata = [:]
        if let sourceID { metadata["source"] = .string(sourceID) }
        logger.info("\(text)", metadata: metadata)
    }
}
