import Domain
import Foundation
import HTTPClient

/// Records from Acme: `GET {baseURL}/search?query=QUERY`, one request per query.
public struct AcmeRecordRepository {
    private let client: any HTTPFetching
    private let baseURL: URL
    private let apiKey: String?
    private let queries: [String]

    public init(client: any HTTPFetching, baseURL: URL, apiKey: String?, queries: [String]) {
        self.client = client
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.queries = queries
    }

    func request(for query: String) -> HTTPRequest {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if let apiKey { headers.add("Authorization", "Bearer \(apiKey)") }
        return .get(baseURL, path: "/search", query: [URLQueryItem(name: "query", value: query)],
                    headers: headers, secrets: apiKey.map { [$0] } ?? [])
    }
}

extension AcmeRecordRepository: WholeUnitRecordRepository {
    /// One unit per query: the use case fetches them concurrently and labels failures with them.
    public func recordUnits() -> Result<[String], SourceError> {
        .success(queries)
    }

    public func records(
        in unit: String, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<[Record], SourceError>) -> Void
    ) {
        client.getJSON(AcmeResponseDTO.self, request(for: unit), cancellation: cancellation) { result in
            completion(result.flatMap { $0.toDomain() })
        }
    }
}
