import Domain
import Foundation

/// Sends HTTP requests for a provider's repository: the seam between providers and the transport.
///
/// `CurlHTTPClient` (HTTPClientLive) is the real one. Layers with the same shape can wrap it (a response cache that
/// answers fresh requests itself and revalidates stale ones with `If-None-Match`), which is why `fetch`
/// hands back every status as a response rather than deciding what a 304 or a 404 means.
public protocol HTTPFetching: Sendable {
    /// Sends `request` (retrying idempotent ones on network errors, 429 and 5xx as the client's policy
    /// allows) and delivers the final response whatever its status, or an error when no usable response
    /// arrived: transport failure, timeout or cancellation, a body over the size cap, a refused credential.
    /// `completion` runs exactly once, on no particular thread (the live clients use
    /// `DispatchQueue.responseDelivery`).
    func fetch(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    )
}

extension HTTPFetching {
    /// `fetch`, then the status check: a 4xx/5xx is never a success. `serviceMessage` reads the service's
    /// own explanation from an error body (`{"message": "city not found"}`) for the error message.
    public func send(
        _ request: HTTPRequest, cancellation: CancellationToken,
        serviceMessage: @escaping @Sendable (HTTPResponse) -> String? = { _ in nil },
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        fetch(request, cancellation: cancellation) { result in
            completion(result.flatMap { response in
                response.isSuccess || response.status == 304
                    ? .success(response)
                    : response.validated(serviceMessage: serviceMessage(response), secrets: request.secrets)
            })
        }
    }

    /// `send`, then JSON decoding of a successful body.
    public func getJSON<T: Decodable & Sendable>(
        _ type: T.Type, _ request: HTTPRequest, cancellation: CancellationToken, decoder: JSONDecoder = JSONDecoder(),
        serviceMessage: @escaping @Sendable (HTTPResponse) -> String? = { _ in nil },
        completion: @escaping @Sendable (Result<T, SourceError>) -> Void
    ) {
        send(request, cancellation: cancellation, serviceMessage: serviceMessage) { result in
            completion(result.flatMap { $0.decode(type, using: decoder) })
        }
    }
}
