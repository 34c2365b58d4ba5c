import Foundation

extension CapabilityTemplate {
    static func feed(_ name: ProviderName) -> CapabilityTemplate {
        let type = name.typeName
        let repository = "\(type)FeedRepository"
        let dto = "\(type)ResponseDTO"
        return CapabilityTemplate(
            summary: "Entries of many feeds at once (\(name.displayName))",
            manifestOptions: #"{ "feeds": ["/feed.json"], "maxEntries": 20, "apiKey": "${\#(name.apiKeyVariable)}" }"#,
            about: [
                "Each feed is one request (an http(s) URL, or a path on `baseURL`), fetched concurrently up to the",
                "source's `concurrency`; entries in document order, feeds in manifest order. A feed that fails is a",
                "warning naming it; the source fails only when every feed failed. The body is a JSON Feed 1.1.",
            ],
            optionSpecs: #"""
                        OptionSpec("feeds", "array of URLs or /paths", required: true,
                                   help: "The feeds to read: an http(s) URL, or a path on baseURL such as \"/feed.json\"."),
                        OptionSpec("maxEntries", "integer 1–500", default: "20", help: "At most this many entries per feed."),
            """#,
            readOptions: #"""
                    let feeds = reader.require("feeds", as: [String].self)
                    if feeds?.isEmpty == true { reader.problem("feeds", "name at least one feed") }
                    let maxEntries = reader.value("maxEntries", as: Int.self) ?? 20
                    if !(1...500).contains(maxEntries) { reader.problem("maxEntries", "must be between 1 and 500, found \(maxEntries)") }
            """#,
            readAfterHTTPOptions: #"""
                    var locations: [FeedLocation] = []
                    for (index, text) in (feeds ?? []).enumerated() {
                        if let location = \#(repository).location(text, baseURL: http.baseURL) {
                            locations.append(location)
                        } else {
                            reader.problem("feeds[\(index)]", "expected an http(s) URL or a path starting with /, found '\(text)'")
                        }
                    }
            """#,
            unwrapOptions: #"""
                    guard feeds != nil else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }
            """#,
            makeSource: #"""
                    let repository = \#(repository)(client: client, baseURL: http.baseURL, apiKey: apiKey)
                    return FetchFeedEntriesUseCase(repository: repository, locations: locations, maxEntriesPerFeed: maxEntries)
            """#,
            repositoryFile: #"""
            import Domain
            import Foundation
            import HTTPClient

            /// JSON feeds from \#(name.displayName), one request per feed.
            public struct \#(repository) {
            \#(RequestTemplate.members(repository))

                /// Where a feed option points: an http(s) URL as is, a `/path` on the base URL; nil otherwise.
                public static func location(_ text: String, baseURL: URL) -> FeedLocation? {
                    if let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                       url.host?.isEmpty == false {
                        return .url(url)
                    }
                    return text.hasPrefix("/") ? .url(HTTPRequest.url(baseURL, path: text)) : nil
                }

                func request(for url: URL) -> HTTPRequest {
            \#(RequestTemplate.headers)
                    return HTTPRequest(.get, url: url, headers: headers, secrets: \#(RequestTemplate.secrets))
                }
            }

            extension \#(repository): FeedRepository {
                public func feed(
                    at location: FeedLocation, maxEntries: Int, cancellation: CancellationToken,
                    completion: @escaping @Sendable (Result<Feed, SourceError>) -> Void
                ) {
                    guard case .url(let url) = location else {
                        return completion(.failure(SourceError(.configuration, "this provider reads feeds over http(s) only")))
                    }
                    client.getJSON(\#(dto).self, request(for: url), cancellation: cancellation) { result in
                        completion(result.map { $0.toDomain(maxEntries: maxEntries) })
                    }
                }
            }

            """#,
            dtoFile: #"""
            import Domain
            import Foundation

            // MARK: - Data Transfer Object

            /// A JSON Feed 1.1 document (jsonfeed.org). Optional wherever the format allows a field to be absent.
            struct \#(dto): Decodable {
                struct ItemDTO: Decodable {
                    struct AuthorDTO: Decodable {
                        let name: String?
                    }

                    let id: String
                    let url: String?
                    let title: String?
                    let summary: String?
                    let contentText: String?
                    let datePublished: String?
                    let dateModified: String?
                    let tags: [String]?
                    let authors: [AuthorDTO]?

                    enum CodingKeys: String, CodingKey {
                        case id, url, title, summary, tags, authors
                        case contentText = "content_text"
                        case datePublished = "date_published"
                        case dateModified = "date_modified"
                    }
                }

                let title: String?
                let homePageURL: String?
                let items: [ItemDTO]

                enum CodingKeys: String, CodingKey {
                    case title, items
                    case homePageURL = "home_page_url"
                }
            }

            // MARK: - Mappings to Domain

            extension \#(dto) {
                func toDomain(maxEntries: Int) -> Feed {
                    Feed(
                        title: title, link: homePageURL.flatMap(URL.init(string:)),
                        entries: items.prefix(maxEntries).map { item in
                            FeedEntry(
                                id: item.id, title: item.title, link: item.url.flatMap(URL.init(string:)), summary: item.summary,
                                content: item.contentText, author: item.authors?.first?.name, categories: item.tags ?? [],
                                published: item.datePublished.flatMap(ISO8601.date(from:)),
                                updated: item.dateModified.flatMap(ISO8601.date(from:)))
                        })
                }
            }

            """#,
            fixtureName: "feed.json",
            fixture: #"""
            {"version":"https://jsonfeed.org/version/1.1","title":"Example notes","home_page_url":"https://example.org/","items":[{"id":"https://example.org/2","url":"https://example.org/2","title":"Second note","content_text":"More.","date_published":"2024-05-02T08:30:00Z","tags":["swift"],"authors":[{"name":"Ada"}]},{"id":"https://example.org/1","url":"https://example.org/1","title":"First note","content_text":"Hello.","date_published":"2024-05-01T12:00:00Z"}]}

            """#,
            testOptions: #""feeds": ["/a.json", "/b.json", "/c.json"]"#,
            routes: #"""
                    for path in ["/a.json", "/b.json", "/c.json"] { server.route(path, try recordedResponse()) }
            """#,
            expectedIDs: #"Array(repeating: ["https://example.org/2", "https://example.org/1"], count: 3).flatMap { $0 }"#,
            requestExpectations: #"""
                    #expect(server.requests.map(\.path).sorted() == ["/a.json", "/b.json", "/c.json"])
            """#,
            invalidKey: "feeds", invalidValue: #"["/a.json", "feed.json"]"#, invalidPath: "sources[0].options.feeds[1]")
    }
}
