import Domain
import FeedParsing
import Foundation
import HTTPClient

/// HTML pages read into entries with `HTMLPageParser`: fetched through the shared HTTP client, or read from local
/// files. A page is a `Feed` to the use case, so its entries are the feed provider's.
///
/// Parsing runs on the thread that delivers the body (a global queue, never a Swift concurrency thread).
struct HTMLPageRepository {
    private let client: any HTTPFetching
    private let extraction: HTMLExtraction

    init(client: any HTTPFetching, extraction: HTMLExtraction) {
        self.client = client
        self.extraction = extraction
    }

    /// What a page request asks for: HTML first, XHTML after.
    static let acceptHeader = "text/html, application/xhtml+xml;q=0.9, */*;q=0.5"

    /// Refuses a body the server says is no markup (JSON, an image, a PDF): read as HTML it would only be a page
    /// whose items match nothing. Text of any kind, XML and no `Content-Type` at all are read.
    static func checkMarkup(_ contentType: String?) throws(SourceError) {
        guard let contentType else { return }
        let media = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if media.isEmpty || media.hasPrefix("text/") || media.hasSuffix("xml") || media == "application/octet-stream" { return }
        throw SourceError(.badResponse, "expected an HTML page, the server sent \(media)")
    }
}

extension HTMLPageRepository: FeedRepository {
    func feed(
        at location: FeedLocation, maxEntries: Int, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<Feed, SourceError>) -> Void
    ) {
        let extraction = self.extraction
        switch location {
        case .file(let url):
            DispatchQueue.global().async {
                completion(Result { () throws(SourceError) in
                    try HTMLPageParser.parse(contentsOf: url, extraction: extraction, maxItems: maxEntries)
                })
            }
        case .url(let url):
            let request = HTTPRequest(.get, url: url, headers: ["Accept": Self.acceptHeader])
            client.send(request, cancellation: cancellation) { result in
                completion(result.flatMap { response in
                    Result { () throws(SourceError) in
                        try Self.checkMarkup(response.headers["Content-Type"])
                        return try HTMLPageParser.parse(
                            response.body, charset: ContentType.charset(response.headers["Content-Type"]),
                            url: response.url, extraction: extraction, maxItems: maxEntries)
                    }
                })
            }
        }
    }
}
