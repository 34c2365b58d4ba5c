import Domain
import Foundation

/// How one request of a source ended, as a monitoring system counts it.
public enum HTTPRequestOutcome: Sendable, Hashable {
    /// The server answered with this status (after any retries; a 304 is a revalidated cache entry).
    case status(Int)
    /// No usable answer came: the failure's kind.
    case failed(SourceError.Kind)
    /// The response cache answered; no request was sent.
    case cacheHit

    /// A short, bounded label: the status code, the error kind, or `cache_hit`.
    public var label: String {
        switch self {
        case .status(let status): String(status)
        case .failed(let kind): kind.rawValue
        case .cacheHit: "cache_hit"
        }
    }
}

/// Told of each request a source's HTTP client finished (the serve front end counts them in `/metrics`).
/// Called on no particular thread; must not block.
public protocol HTTPRequestRecorder: Sendable {
    /// One request of source `source` ended with `outcome`.
    func record(source: String, _ outcome: HTTPRequestOutcome)
}

/// Records the outcome of every request that goes to the network (placed under the response cache, which
/// records its own hits): what a server answered, or why nothing usable came.
public struct RecordingHTTPClient: HTTPFetching {
    private let upstream: any HTTPFetching
    private let source: String
    private let recorder: any HTTPRequestRecorder

    /// Records the outcomes of `upstream`'s requests for `source` with `recorder`.
    public init(upstream: any HTTPFetching, source: String, recorder: any HTTPRequestRecorder) {
        self.upstream = upstream
        self.source = source
        self.recorder = recorder
    }

    /// Forwards to `upstream`, records the outcome (a status, or the error's kind) and then completes with it.
    public func fetch(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        upstream.fetch(request, cancellation: cancellation) { [source, recorder] result in
            switch result {
            case .success(let response): recorder.record(source: source, .status(response.status))
            case .failure(let error): recorder.record(source: source, .failed(error.kind))
            }
            completion(result)
        }
    }
}
