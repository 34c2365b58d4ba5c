import Domain
import Foundation
import HTTPClient
import Synchronization

/// Makes `URLSessionHTTPClient`s, each on its first request: building a source (validating a manifest,
/// planning a run whose source is then skipped) opens no URLSession.
public struct LiveHTTPClientFactory: HTTPClientFactory {
    public init() {}

    public func makeClient(_ configuration: HTTPClientConfiguration) -> any HTTPFetching {
        LazyURLSessionClient(configuration: configuration)
    }
}

/// A `URLSessionHTTPClient` made when the first request comes.
private final class LazyURLSessionClient: HTTPFetching {
    private let configuration: HTTPClientConfiguration
    private let client = Mutex<URLSessionHTTPClient?>(nil)

    init(configuration: HTTPClientConfiguration) {
        self.configuration = configuration
    }

    func fetch(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        session().fetch(request, cancellation: cancellation, completion: completion)
    }

    private func session() -> URLSessionHTTPClient {
        if let made = client.withLock({ $0 }) { return made }
        // Made outside the lock; when two first requests race, the first one stored is kept.
        let made = URLSessionHTTPClient(configuration: configuration)
        return client.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
    }
}
