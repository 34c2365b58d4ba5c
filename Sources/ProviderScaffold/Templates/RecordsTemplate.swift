import Foundation

extension CapabilityTemplate {
    static func records(_ name: ProviderName) -> CapabilityTemplate {
        let type = name.typeName
        let repository = "\(type)RecordRepository"
        let dto = "\(type)ResponseDTO"
        return CapabilityTemplate(
            summary: "Records from \(name.displayName) (one request per query)",
            manifestOptions: #"{ "queries": ["swift", "rust"], "apiKey": "${\#(name.apiKeyVariable)}" }"#,
            about: [
                "Each query is one request (`GET {baseURL}/search?query=QUERY`), fetched concurrently up to the",
                "source's `concurrency` and reported in manifest order. A query that fails is a warning naming it;",
                "the source fails only when every query failed.",
            ],
            optionSpecs: #"""
                        OptionSpec("queries", "array of strings", required: true,
                                   help: "What to ask for: one request each, reported in this order."),
            """#,
            readOptions: #"""
                    let queries = reader.require("queries", as: [String].self)
                    if queries?.isEmpty == true { reader.problem("queries", "name at least one query") }
                    for (index, query) in (queries ?? []).enumerated() where query.trimmingCharacters(in: .whitespaces).isEmpty {
                        reader.problem("queries[\(index)]", "a query cannot be empty")
                    }
            """#,
            unwrapOptions: #"""
                    guard let queries else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }
            """#,
            makeSource: #"""
                    let repository = \#(repository)(client: client, baseURL: http.baseURL, apiKey: apiKey, queries: queries)
                    return ReadRecordsUseCase(repository: repository)
            """#,
            repositoryFile: #"""
            import Domain
            import Foundation
            import HTTPClient

            /// Records from \#(name.displayName): `GET {baseURL}/search?query=QUERY`, one request per query.
            public struct \#(repository) {
            \#(RequestTemplate.members(repository, extra: [("queries", "[String]")]))

                func request(for query: String) -> HTTPRequest {
            \#(RequestTemplate.headers)
                    return .get(baseURL, path: "/search", query: [URLQueryItem(name: "query", value: query)],
                                headers: headers, secrets: \#(RequestTemplate.secrets))
                }
            }

            extension \#(repository): WholeUnitRecordRepository {
                /// One unit per query: the use case fetches them concurrently and labels failures with them.
                public func recordUnits() -> Result<[String], SourceError> {
                    .success(queries)
                }

                public func records(
                    in unit: String, cancellation: CancellationToken,
                    completion: @escaping @Sendable (Result<[Record], SourceError>) -> Void
                ) {
                    client.getJSON(\#(dto).self, request(for: unit), cancellation: cancellation) { result in
                        completion(result.flatMap { $0.toDomain() })
                    }
                }
            }

            """#,
            dtoFile: #"""
            import Domain
            import Foundation

            // MARK: - Data Transfer Object

            /// `GET /search`, success body. Optional wherever real responses may omit a field.
            struct \#(dto): Decodable {
                struct ItemDTO: Decodable {
                    let id: String
                    let title: String?
                    let url: String?
                    let createdAt: String?
                    let points: Int?
                }

                let items: [ItemDTO]
            }

            // MARK: - Mappings to Domain

            extension \#(dto) {
                /// Field keys are camelCase and stable: scripts rely on them.
                func toDomain() -> Result<[Record], SourceError> {
                    var records: [Record] = []
                    for item in items {
                        guard !item.id.isEmpty else { return .failure(SourceError(.badResponse, "an item has an empty id")) }
                        var fields: JSONObject = ["id": .string(item.id)]
                        fields["title"] = item.title.map(JSONValue.string)
                        fields["url"] = item.url.map(JSONValue.string)
                        fields["createdAt"] = item.createdAt.map(JSONValue.string)
                        fields["points"] = item.points.map(JSONValue.int)
                        records.append(Record(
                            id: item.id, title: item.title ?? "(untitled)", url: item.url.flatMap(URL.init(string:)),
                            date: item.createdAt.flatMap(ISO8601.date(from:)), fields: fields))
                    }
                    return .success(records)
                }
            }

            """#,
            fixtureName: "search.json",
            fixture: #"""
            {"items":[{"id":"101","title":"A tiny Swift package","url":"https://example.com/items/101","createdAt":"2024-05-01T12:00:00Z","points":42},{"id":"102","title":"How do you test providers?","createdAt":"2024-05-02T08:30:00Z","points":7}]}

            """#,
            testOptions: #""queries": ["swift", "rust", "go"]"#,
            routes: #"        server.route("/search", try recordedResponse())"#,
            expectedIDs: #"Array(repeating: ["101", "102"], count: 3).flatMap { $0 }"#,
            requestExpectations: #"""
                    #expect(server.requests.compactMap { $0.query("query") }.sorted() == ["go", "rust", "swift"])
            """#,
            invalidKey: "queries", invalidValue: #"["swift", ""]"#, invalidPath: "sources[0].options.queries[1]")
    }
}
