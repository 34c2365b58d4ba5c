import Domain
import Foundation
import ProviderKit

/// Makes the HTTP client of one source: the seam through which the composition root hands providers their
/// transport. Providers never build one themselves; they ask their configuration (`httpClient(_:)`), and
/// what they get may be the live libcurl client, wrapped in the response cache, or a test's fake.
public protocol HTTPClientFactory: Sendable {
    /// A client that behaves as `configuration` says, for one source.
    func makeClient(_ configuration: HTTPClientConfiguration) -> any HTTPFetching
}

/// The `ProviderServices` key of the HTTP client factory.
public enum HTTPClientFactoryKey: ProviderServiceKey {
    /// The factory itself.
    public typealias Value = any HTTPClientFactory
}

extension ProviderServices {
    /// How this source's HTTP clients are made; nil where the composition root gave none.
    public var http: (any HTTPClientFactory)? {
        get { self[HTTPClientFactoryKey.self] }
        set { self[HTTPClientFactoryKey.self] = newValue }
    }
}

extension SourceConfiguration {
    /// The HTTP client the composition root provides for this source, configured by `configuration`.
    /// Without one every request fails as a `configuration` error naming the gap (a wiring mistake, never a
    /// user's).
    public func httpClient(_ configuration: HTTPClientConfiguration) -> any HTTPFetching {
        services.http?.makeClient(configuration) ?? UnavailableHTTPClient()
    }
}

/// What a source gets when nobody provided an HTTP client.
private struct UnavailableHTTPClient: HTTPFetching {
    func fetch(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        DispatchQueue.responseDelivery.async {
            completion(.failure(SourceError(.configuration, "no HTTP client was provided for this source")))
        }
    }
}
