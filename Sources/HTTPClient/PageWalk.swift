import Domain
import Foundation

/// The pages of a listing read one after another (GitHub's and GitLab's issues): each answer decides the next
/// page (a `Link: rel="next"`, an `X-Next-Page`) or the end, carrying what the pages kept so far. A next page
/// already read ends the walk, so a link back never loops.
///
/// Only the first page decides whether the listing failed. A later page that fails (an error status, a
/// timeout, a body that does not decode) or that is not followed (`Step.stop`: a link to another origin with a
/// token) ends the walk with what the pages before it kept and a warning naming the page: nothing already
/// read is thrown away.
public enum PageWalk {
    /// What one page decided.
    public enum Step<Kept: Sendable>: Sendable {
        /// Keep what was read and go on to this URL.
        case next(URL, Kept)
        /// Keep what was read; this was the last page.
        case done(Kept)
        /// Keep what was read, but do not follow the next page, for `reason` (said in a warning).
        case stop(Kept, reason: SourceError)
    }

    /// Fetches `first`, then `request(url)` for each next page `step` names. `completion` gets what was kept (or
    /// the first page's failure), a warning for each page left unread, and the last answer, for what its headers
    /// say (a quota left).
    public static func run<Kept: Sendable>(
        _ first: HTTPRequest, kept: Kept, client: any HTTPFetching, cancellation: CancellationToken,
        request: @escaping @Sendable (URL) -> HTTPRequest,
        step: @escaping @Sendable (HTTPResponse, Kept) -> Result<Step<Kept>, SourceError>,
        completion: @escaping @Sendable (Result<Kept, SourceError>, _ warnings: [String], _ last: HTTPResponse?) -> Void
    ) {
        let walk = Walk(client: client, cancellation: cancellation, request: request, step: step, completion: completion)
        walk.fetch(first, number: 1, visited: [first.url], kept: kept)
    }

    /// The warning of a page left unread, after `read` pages that were kept.
    static func unread(page number: Int, read: Int, because error: SourceError) -> String {
        let pages = read == 1 ? "the first page" : "the first \(read) pages"
        return "page \(number) not read (\(error.kind.rawValue): \(error.message)); \(pages) kept"
    }

    private struct Walk<Kept: Sendable>: Sendable {
        let client: any HTTPFetching
        let cancellation: CancellationToken
        let request: @Sendable (URL) -> HTTPRequest
        let step: @Sendable (HTTPResponse, Kept) -> Result<Step<Kept>, SourceError>
        let completion: @Sendable (Result<Kept, SourceError>, [String], HTTPResponse?) -> Void

        func fetch(_ page: HTTPRequest, number: Int, visited: Set<URL>, kept: Kept) {
            client.fetch(page, cancellation: cancellation) { result in
                let response = try? result.get()
                switch result.flatMap({ step($0, kept) }) {
                case .success(.next(let url, let kept)) where !visited.contains(url):
                    fetch(request(url), number: number + 1, visited: visited.union([url]), kept: kept)
                case .success(.next(_, let kept)), .success(.done(let kept)):
                    completion(.success(kept), [], response)
                case .success(.stop(let kept, let reason)):
                    completion(.success(kept), [PageWalk.unread(page: number + 1, read: number, because: reason)], response)
                case .failure(let error) where number > 1:
                    completion(.success(kept), [PageWalk.unread(page: number, read: number - 1, because: error)], response)
                case .failure(let error):
                    completion(.failure(error), [], response)
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
