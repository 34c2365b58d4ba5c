import Domain
import Foundation
import HTTPClient

/// Pages of TMDB's v3 movie lists: one `GET` per page, authenticated by an API key (`api_key` query item)
/// or a read access token (`Authorization: Bearer`).
public struct TMDBMoviesRepository {
    private let client: any HTTPFetching
    private let baseURL: URL
    private let imageBaseURL: URL
    private let credential: TMDBCredential

    public init(client: any HTTPFetching, baseURL: URL, imageBaseURL: URL, credential: TMDBCredential) {
        self.client = client
        self.baseURL = baseURL
        self.imageBaseURL = imageBaseURL
        self.credential = credential
    }

    func request(for query: MovieQuery, page: Int) -> HTTPRequest {
        var items: [URLQueryItem] = []
        if case .search(let text) = query.listing {
            items.append(URLQueryItem(name: "query", value: text))
            items.append(URLQueryItem(name: "include_adult", value: query.includeAdult ? "true" : "false"))
            if let year = query.year { items.append(URLQueryItem(name: "year", value: String(year))) }
        }
        items.append(URLQueryItem(name: "page", value: String(page)))
        if let language = query.language { items.append(URLQueryItem(name: "language", value: language)) }
        if let region = query.region { items.append(URLQueryItem(name: "region", value: region)) }
        var headers: HTTPHeaders = ["Accept": "application/json"]
        switch credential {
        case .apiKey(let key): items.append(URLQueryItem(name: "api_key", value: key))
        case .accessToken(let token): headers["Authorization"] = "Bearer \(token)"
        }
        return .get(baseURL, path: query.listing.tmdbPath, query: items, headers: headers, secrets: [credential.secret])
    }
}

extension TMDBMoviesRepository: MoviesRepository {
    public func moviesPage(
        _ query: MovieQuery, page: Int, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<MoviesPage, SourceError>) -> Void
    ) {
        if case .search(let text) = query.listing, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return completion(.failure(SourceError(
                .configuration, "search mode needs a query: set options.query or pass --query")))
        }
        let imageBaseURL = self.imageBaseURL
        client.getJSON(
            MoviesPageResponseDTO.self, request(for: query, page: page), cancellation: cancellation,
            serviceMessage: { TMDBErrorDTO.message(in: $0.body) }
        ) { result in
            completion(result.flatMap { $0.toDomain(imageBaseURL: imageBaseURL) })
        }
    }
}
