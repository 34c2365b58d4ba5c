import Foundation

extension CapabilityTemplate {
    static func movies(_ name: ProviderName) -> CapabilityTemplate {
        let type = name.typeName
        let repository = "\(type)MoviesRepository"
        let dto = "\(type)ResponseDTO"
        return CapabilityTemplate(
            summary: "Movies matching a search, page by page (\(name.displayName))",
            manifestOptions: #"{ "query": "matrix", "pages": 2, "apiKey": "${\#(name.apiKeyVariable)}" }"#,
            about: [
                "Page 1 comes first (`GET {baseURL}/search/movie?query=QUERY&page=1`, it tells how many pages exist),",
                "then the other pages concurrently up to the source's `concurrency`, never past the last page. A later",
                "page that fails is a warning; the source fails when page 1 fails. Repeated movies are dropped.",
            ],
            optionSpecs: #"""
                        OptionSpec("query", "string", required: true, help: "What to search for."),
                        OptionSpec("pages", "integer 1–20", default: "1", help: "How many pages of results to read."),
                        OptionSpec("language", "string", help: "Language of titles and overviews (\"de-DE\", \"ko-KR\", …)."),
            """#,
            readOptions: #"""
                    let text = reader.require("query", as: String.self)
                    if let text, text.trimmingCharacters(in: .whitespaces).isEmpty { reader.problem("query", "cannot be empty") }
                    let pages = reader.value("pages", as: Int.self) ?? 1
                    if !(1...20).contains(pages) { reader.problem("pages", "must be between 1 and 20, found \(pages)") }
                    let language = reader.value("language", as: String.self)
            """#,
            unwrapOptions: #"""
                    guard let text else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }
            """#,
            makeSource: #"""
                    let repository = \#(repository)(client: client, baseURL: http.baseURL, apiKey: apiKey)
                    return SearchMoviesUseCase(
                        repository: repository, queriesRepository: configuration.services.moviesQueries,
                        query: MovieQuery(listing: .search(query: text), language: language), pages: pages)
            """#,
            repositoryFile: #"""
            import Domain
            import Foundation
            import HTTPClient

            /// Movie search pages from \#(name.displayName): `GET {baseURL}/search/movie?query=QUERY&page=N`.
            public struct \#(repository) {
            \#(RequestTemplate.members(repository))

                func request(for query: MovieQuery, page: Int) -> HTTPRequest {
            \#(RequestTemplate.headers)
                    var text = ""
                    if case .search(let query) = query.listing { text = query }
                    var items = [URLQueryItem(name: "query", value: text), URLQueryItem(name: "page", value: String(page))]
                    if let language = query.language { items.append(URLQueryItem(name: "language", value: language)) }
                    return .get(baseURL, path: "/search/movie", query: items, headers: headers, secrets: \#(RequestTemplate.secrets))
                }
            }

            extension \#(repository): MoviesRepository {
                public func moviesPage(
                    _ query: MovieQuery, page: Int, cancellation: CancellationToken,
                    completion: @escaping @Sendable (Result<MoviesPage, SourceError>) -> Void
                ) {
                    client.getJSON(\#(dto).self, request(for: query, page: page), cancellation: cancellation) { result in
                        completion(result.map { $0.toDomain() })
                    }
                }
            }

            """#,
            dtoFile: #"""
            import Domain
            import Foundation

            // MARK: - Data Transfer Object

            /// `GET /search/movie`, success body. Optional wherever real responses may omit a field.
            struct \#(dto): Decodable {
                struct MovieDTO: Decodable {
                    let id: Int
                    let title: String
                    let overview: String?
                    /// `2024-05-01`, or `""` when unknown.
                    let releaseDate: String?
                    let voteAverage: Double?

                    enum CodingKeys: String, CodingKey {
                        case id, title, overview
                        case releaseDate = "release_date"
                        case voteAverage = "vote_average"
                    }
                }

                let page: Int
                let totalPages: Int
                let totalResults: Int
                let results: [MovieDTO]

                enum CodingKeys: String, CodingKey {
                    case page, results
                    case totalPages = "total_pages"
                    case totalResults = "total_results"
                }
            }

            // MARK: - Mappings to Domain

            extension \#(dto) {
                func toDomain() -> MoviesPage {
                    MoviesPage(
                        page: page, totalPages: totalPages, totalResults: totalResults,
                        movies: results.map { movie in
                            Movie(
                                id: movie.id, title: movie.title, overview: movie.overview,
                                releaseDate: movie.releaseDate.flatMap(ISO8601.date(from:)), voteAverage: movie.voteAverage)
                        })
                }
            }

            """#,
            fixtureName: "search_movie.json",
            fixture: #"""
            {"page":1,"total_pages":5,"total_results":9,"results":[{"id":603,"title":"The Matrix","overview":"A hacker learns what the world is.","release_date":"1999-03-30","vote_average":8.2},{"id":604,"title":"The Matrix Reloaded","overview":"The fight goes on.","release_date":"","vote_average":7.1}]}

            """#,
            testOptions: #""query": "matrix", "pages": 4"#,
            routes: #"        server.route("/search/movie", try recordedResponse())"#,
            expectedIDs: #"["603", "604"]"#,
            requestExpectations: #"""
                    #expect(server.requests.compactMap { $0.query("page") }.sorted() == ["1", "2", "3", "4"])
                    #expect(server.requests.allSatisfy { $0.query("query") == "matrix" })
            """#,
            invalidKey: "pages", invalidValue: "0", invalidPath: "sources[0].options.pages")
    }
}
