import Domain
import Foundation

/// The pages of a listing read one after another (GitHub's and GitLab's issues): each answer decides the next
/// page (a `Link: rel="next"`, an `X-Next-Page`) or the end, carrying what the pages kept so far. Errors after
/// the first page name it (`page 3: …`), and a next page already read ends the walk, so a link back never loops.
public enum PageWalk {
    /// What one page decided.
    public enum Step<Kept: Sendable>: Sendable {
        case next(URL, Kept)
        case done(Kept)
    }

    /// Fetches `first`, then `request(url)` for each next page `step` names. `completion` gets what was kept (or
    /// the first failure) and the last answer, for what its headers say (a quota left).
    public static func run<Kept: Sendable>(
        _ first: HTTPRequest, kept: Kept, client: any HTTPFetching, cancellation: CancellationToken,
        request: @escaping @Sendable (URL) -> HTTPRequest,
        step: @escaping @Sendable (HTTPResponse, Kept) -> Result<Step<Kept>, SourceError>,
        completion: @escaping @Sendable (Result<Kept, SourceError>, _ last: HTTPResponse?) -> Void
    ) {
        let walk = Walk(client: client, cancellation: cancellation, request: request, step: step, completion: completion)
        walk.fetch(first, number: 1, visited: [first.url], kept: kept)
    }

    private struct Walk<Kept: Sendable>: Sendable {
        let client: any HTTPFetching
        let cancellation: CancellationToken
        let request: @Sendable (URL) -> HTTPRequest
        let step: @Sendable (HTTPResponse, Kept) -> Result<Step<Kept>, SourceError>
        let completion: @Sendable (Result<Kept, SourceError>, HTTPResponse?) -> Void

        func fetch(_ page: HTTPRequest, number: Int, visited: Set<URL>, kept: Kept) {
            client.fetch(page, cancellation: cancellation) { result in
                let response = try? result.get()
                let decided = result.flatMap { step($0, kept) }.mapError { number == 1 ? $0 : $0.prefixed("page \(number)") }
                switch decided {
                case .success(.next(let url, let kept)) where !visited.contains(url):
                    fetch(request(url), number: number + 1, visited: visited.union([url]), kept: kept)
                case .success(.next(_, let kept)), .success(.done(let kept)):
                    completion(.success(kept), response)
                case .failure(let error):
                    completion(.failure(error), response)
                }
            }
        }
    }
}

extension JSONDecoder {
    /// A decoder for ISO 8601 timestamps as the trackers write them (`2022-07-19T04:38:38Z`,
    /// `2016-01-04T15:31:46.176Z`), through Domain's one parser.
    public static func iso8601Dates() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date")
            }
            return date
        }
        return decoder
    }
}
