import Foundation

extension CapabilityTemplate {
    static func issues(_ name: ProviderName) -> CapabilityTemplate {
        let type = name.typeName
        let repository = "\(type)IssueRepository"
        let dto = "\(type)ResponseDTO"
        return CapabilityTemplate(
            summary: "Issues of many repositories at once (\(name.displayName))",
            manifestOptions: #"{ "repositories": ["acme/rockets"], "state": "open", "apiKey": "${\#(name.apiKeyVariable)}" }"#,
            about: [
                "Each repository is one request (`GET {baseURL}/repos/OWNER/NAME/issues?state=STATE&per_page=N`),",
                "fetched concurrently up to the source's `concurrency` and reported in manifest order. A repository",
                "that fails is a warning naming it; the source fails only when every repository failed.",
            ],
            optionSpecs: #"""
                        OptionSpec("repositories", "array of \"owner/name\"", required: true, help: "The repositories to list, in output order."),
                        OptionSpec("state", "open|closed|all", default: "open", help: "Which issues to list."),
                        OptionSpec("maxItems", "integer 1–100", default: "30", help: "At most this many issues per repository."),
            """#,
            readOptions: #"""
                    let names = reader.require("repositories", as: [String].self)
                    if names?.isEmpty == true { reader.problem("repositories", "name at least one repository as \"owner/name\"") }
                    var repositories: [RepositoryRef] = []
                    for (index, text) in (names ?? []).enumerated() {
                        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
                        if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty {
                            repositories.append(RepositoryRef(owner: String(parts[0]), name: String(parts[1])))
                        } else {
                            reader.problem("repositories[\(index)]", "expected \"owner/name\", found '\(text)'")
                        }
                    }
                    let state = reader.value("state", as: IssueQuery.State.self) ?? .open
                    let maxItems = reader.value("maxItems", as: Int.self) ?? 30
                    if !(1...100).contains(maxItems) { reader.problem("maxItems", "must be between 1 and 100, found \(maxItems)") }
            """#,
            unwrapOptions: #"""
                    guard names != nil else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }
            """#,
            makeSource: #"""
                    let repository = \#(repository)(client: client, baseURL: http.baseURL, apiKey: apiKey)
                    return FetchIssuesUseCase(
                        repository: repository, repositories: repositories, query: IssueQuery(state: state, maxItems: maxItems))
            """#,
            repositoryFile: #"""
            import Domain
            import Foundation
            import HTTPClient

            /// Issues from \#(name.displayName): `GET {baseURL}/repos/OWNER/NAME/issues`, one request per repository.
            public struct \#(repository) {
            \#(RequestTemplate.members(repository))

                func request(for repository: RepositoryRef, matching query: IssueQuery) -> HTTPRequest {
            \#(RequestTemplate.headers)
                    let items = [URLQueryItem(name: "state", value: query.state.rawValue),
                                 URLQueryItem(name: "per_page", value: String(query.maxItems))]
                    return .get(baseURL, path: "/repos/\(repository.owner)/\(repository.name)/issues", query: items,
                                headers: headers, secrets: \#(RequestTemplate.secrets))
                }
            }

            extension \#(repository): IssueRepository {
                public func issues(
                    in repository: RepositoryRef, matching query: IssueQuery, cancellation: CancellationToken,
                    completion: @escaping @Sendable (Result<IssueListing, SourceError>) -> Void
                ) {
                    client.getJSON(\#(dto).self, request(for: repository, matching: query), cancellation: cancellation) { result in
                        completion(result.flatMap { $0.toDomain(in: repository) }.map { IssueListing(issues: $0) })
                    }
                }
            }

            """#,
            dtoFile: #"""
            import Domain
            import Foundation

            // MARK: - Data Transfer Object

            /// `GET /repos/OWNER/NAME/issues`, success body. Optional wherever real responses may omit a field.
            struct \#(dto): Decodable {
                struct IssueDTO: Decodable {
                    struct LabelDTO: Decodable {
                        let name: String
                        let color: String?
                    }

                    let number: Int
                    let title: String
                    let state: String
                    let url: String?
                    let author: String?
                    let labels: [LabelDTO]?
                    let comments: Int?
                    let createdAt: String
                    let updatedAt: String
                }

                let items: [IssueDTO]
            }

            // MARK: - Mappings to Domain

            extension \#(dto) {
                func toDomain(in repository: RepositoryRef) -> Result<[TrackerIssue], SourceError> {
                    var issues: [TrackerIssue] = []
                    for item in items {
                        guard let createdAt = ISO8601.date(from: item.createdAt), let updatedAt = ISO8601.date(from: item.updatedAt) else {
                            return .failure(SourceError(.badResponse, "issue #\(item.number) has an unreadable date"))
                        }
                        issues.append(TrackerIssue(
                            repository: repository, number: item.number, title: item.title, state: item.state,
                            labels: (item.labels ?? []).map { TrackerIssue.Label(name: $0.name, color: $0.color) },
                            author: item.author, commentCount: item.comments ?? 0, createdAt: createdAt, updatedAt: updatedAt,
                            url: item.url.flatMap(URL.init(string:))))
                    }
                    return .success(issues)
                }
            }

            """#,
            fixtureName: "issues.json",
            fixture: #"""
            {"items":[{"number":12,"title":"Launch window slips","state":"open","url":"https://example.com/acme/rockets/issues/12","author":"ada","labels":[{"name":"bug","color":"d73a4a"}],"comments":3,"createdAt":"2024-05-01T12:00:00Z","updatedAt":"2024-05-03T09:00:00Z"},{"number":7,"title":"Document the countdown","state":"open","author":"grace","labels":[],"comments":0,"createdAt":"2024-04-20T10:00:00Z","updatedAt":"2024-04-21T10:00:00Z"}]}

            """#,
            testOptions: #""repositories": ["acme/rockets", "acme/engines", "acme/pads"]"#,
            routes: #"""
                    for name in ["rockets", "engines", "pads"] { server.route("/repos/acme/\(name)/issues", try recordedResponse()) }
            """#,
            expectedIDs: #"["rockets", "engines", "pads"].flatMap { ["acme/\($0)#12", "acme/\($0)#7"] }"#,
            requestExpectations: #"""
                    #expect(server.requests.allSatisfy { $0.query("state") == "open" && $0.query("per_page") == "30" })
            """#,
            invalidKey: "repositories", invalidValue: #"["acme/rockets", "rockets"]"#,
            invalidPath: "sources[0].options.repositories[1]")
    }
}
