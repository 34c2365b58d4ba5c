import Domain
import Foundation
import HTTPClient

/// Issues of GitLab projects from the REST API v4: `GET {baseURL}/api/v4/projects/{url-encoded path}/issues`,
/// then the next pages one after another until `maxItems` issues are kept or the last page. The next page is
/// the `Link` header's `rel="next"`, else the `X-Next-Page` number (GitLab leaves `Link` out in some setups,
/// and both are empty on the last page).
public struct GitLabIssueRepository {
    /// GitLab's largest page.
    public static let maxPageSize = 100

    private let client: any HTTPFetching
    private let baseURL: URL
    private let credential: GitLabCredential?

    public init(client: any HTTPFetching, baseURL: URL, credential: GitLabCredential? = nil) {
        self.client = client
        self.baseURL = baseURL
        self.credential = credential
    }

    func firstPageRequest(for project: RepositoryRef, matching query: IssueQuery) -> HTTPRequest {
        var items: [URLQueryItem] = []
        switch query.state {
        case .open: items.append(URLQueryItem(name: "state", value: "opened"))
        case .closed: items.append(URLQueryItem(name: "state", value: "closed"))
        case .all: break
        }
        if !query.labels.isEmpty { items.append(URLQueryItem(name: "labels", value: query.labels.joined(separator: ","))) }
        if let since = query.since { items.append(URLQueryItem(name: "updated_after", value: ISO8601.string(from: since))) }
        if let assignee = query.assignee { items.append(URLQueryItem(name: "assignee_username", value: assignee)) }
        if let creator = query.creator { items.append(URLQueryItem(name: "author_username", value: creator)) }
        items.append(URLQueryItem(name: "per_page", value: String(min(Self.maxPageSize, max(1, query.maxItems)))))
        // The project's path is one segment of the URL (`group%2Fproject`), which `URLComponents.path` would
        // split, so it is added already encoded.
        var components = URLComponents(url: HTTPRequest.url(baseURL, path: "/api/v4/projects", query: items),
                                       resolvingAgainstBaseURL: false)!
        components.percentEncodedPath += "/" + Self.encodedSegment(project.description) + "/issues"
        return request(components.url!)
    }

    func request(_ url: URL) -> HTTPRequest {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if let header = credential?.header { headers[header.name] = header.value }
        return HTTPRequest(.get, url: url, headers: headers, secrets: credential.map { [$0.token] } ?? [])
    }

    private static func encodedSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }

    /// The page after `response`: `Link: rel="next"`, else `X-Next-Page` applied to the URL that answered.
    static func nextPage(after response: HTTPResponse) -> URL? {
        if let next = LinkHeader(response.headers.values(for: "Link"), relativeTo: response.url).next { return next }
        guard let number = response.headers["X-Next-Page"]?.trimmingCharacters(in: .whitespaces), let page = Int(number),
              page > 0, var components = URLComponents(url: response.url, resolvingAgainstBaseURL: false) else { return nil }
        var items = (components.percentEncodedQueryItems ?? []).filter { $0.name != "page" }
        items.append(URLQueryItem(name: "page", value: String(page)))
        components.percentEncodedQueryItems = items
        return components.url
    }
}

extension GitLabIssueRepository: IssueRepository {
    public func issues(
        in project: RepositoryRef, matching query: IssueQuery, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<IssueListing, SourceError>) -> Void
    ) {
        PageWalk.run(
            firstPageRequest(for: project, matching: query), kept: IssueListing(issues: []), client: client,
            cancellation: cancellation, request: { request($0) },
            step: { response, kept in nextStep(after: response, kept: kept, of: project, matching: query) }
        ) { result, warnings, _ in completion(result.map { $0.adding(warnings) }) }
    }

    private func nextStep(
        after response: HTTPResponse, kept: IssueListing, of project: RepositoryRef, matching query: IssueQuery
    ) -> Result<PageWalk.Step<IssueListing>, SourceError> {
        if let error = statusError(response) { return .failure(error) }
        let decoded = response.decode([GitLabIssueDTO].self, using: GitLabIssueDTO.decoder)
        guard case .success(let dtos) = decoded else { return decoded.map { _ in .done(kept) } }
        var kept = kept
        kept.issues.appendNew(dtos.lazy.map { $0.toDomain(project: project) })
        // An empty page would never end (a link back to a page already read ends the walk).
        let next = dtos.isEmpty ? nil : Self.nextPage(after: response)
        if kept.issues.count >= query.maxItems { return .success(.done(kept.cut(at: query.maxItems, more: next != nil))) }
        guard let next else { return .success(.done(kept)) }
        if credential != nil, !next.hasSameOrigin(as: baseURL) {
            return .success(.stop(kept, reason: SourceError(.badResponse,
                "the next-page link points to \(next.host ?? "another host"), not \(baseURL.host ?? "the API host"); "
                    + "not following it with the token")))
        }
        return .success(.next(next, kept))
    }

    /// The HTTP layer's status mapping, with what a GitLab status means for a project spelled out.
    private func statusError(_ response: HTTPResponse) -> SourceError? {
        guard var error = response.statusError(
            serviceMessage: GitLabErrorDTO.message(in: response.body), secrets: credential.map { [$0.token] } ?? []) else {
            return nil
        }
        switch response.status {
        case 404:
            error.message += credential == nil
                ? " (no such project, or it is private: set a token that can read it)"
                : " (no such project, or the token cannot read it)"
        case 401:
            error.message += credential == nil
                ? " (the instance wants a token: set \"token\", normally to \"${GITLAB_TOKEN}\")"
                : " (the token was refused: it is invalid, expired or revoked, or \"tokenType\" is wrong)"
        default:
            break
        }
        return error
    }
}
