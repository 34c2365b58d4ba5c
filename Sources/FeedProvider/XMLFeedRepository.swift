import Domain
import FeedParsing
import Foundation
import HTTPClient
import Logging

/// Feeds read with `FeedParser`: fetched through the shared HTTP client, or read from local files.
///
/// Parsing runs on the thread that delivers the body (a global queue, never a Swift concurrency thread) and
/// stops after `maxEntries` entries.
public struct XMLFeedRepository {
    private let client: any HTTPFetching
    private let logger: Logger?

    /// - Parameter logger: `--verbose` notes (elements left out because they were no entries).
    public init(client: any HTTPFetching, logger: Logger? = nil) {
        self.client = client
        self.logger = logger
    }

    /// Tells `--verbose` how many entry-like elements a feed had that were no entries.
    private func noteDropped(_ result: Result<Feed, SourceError>, at location: String) -> Result<Feed, SourceError> {
        if case .success(let feed) = result, feed.droppedEntries > 0 {
            logger?.info("\(location): left out \(feed.droppedEntries) element(s) that were no entries (empty, or nested in an entry)")
        }
        return result
    }

    /// What a feed request asks for: feed types first, any XML after.
    static let acceptHeader = "application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, "
        + "application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5"
}

extension XMLFeedRepository: FeedRepository {
    public func feed(
        at location: FeedLocation, maxEntries: Int, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<Feed, SourceError>) -> Void
    ) {
        switch location {
        case .file(let url):
            DispatchQueue.global().async {
                completion(noteDropped(Result { () throws(SourceError) in
                    try FeedParser.parse(contentsOf: url, maxEntries: maxEntries, cancellation: cancellation)
                }, at: url.lastPathComponent))
            }
        case .url(let url):
            let request = HTTPRequest(.get, url: url, headers: ["Accept": Self.acceptHeader])
            client.send(request, cancellation: cancellation) { result in
                completion(noteDropped(result.flatMap { response in
                    Result { () throws(SourceError) in
                        try FeedParser.parse(
                            response.body, charset: ContentType.charset(response.headers["Content-Type"]),
                            baseURL: response.url, maxEntries: maxEntries, cancellation: cancellation)
                    }
                }, at: Redactor.redact(url, secrets: [])))
            }
        }
    }
}
