import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderKit

/// How the container gives one source its HTTP clients: the live URLSession client (made on the first
/// request), wrapped in the response cache when the run gives the source one. The decorator is composed
/// here, not inside the live client, and what the cache did is recorded in the run's storage
/// (`ResponseCachePolicy.activity`), never passed through a provider's options.
struct SourceHTTPClients: HTTPClientFactory {
    var live: any HTTPClientFactory = LiveHTTPClientFactory()
    var responseCache: ResponseCachePolicy?

    func makeClient(_ configuration: HTTPClientConfiguration) -> any HTTPFetching {
        let client = live.makeClient(configuration)
        guard let responseCache else { return client }
        return CachingHTTPClient(upstream: client, policy: responseCache, logger: configuration.logger)
    }
}

/// What the run's storage gives one source: where its recent queries go and its response-cache policy.
struct SourceServices: Sendable {
    var moviesQueries: (any MoviesQueriesRepository)?
    /// Nil when the source's TTL is 0 or there is no store.
    var responseCache: ResponseCachePolicy?

    /// The services as the source's provider sees them.
    var forProvider: ProviderServices {
        var services = ProviderServices(moviesQueries: moviesQueries)
        services.http = SourceHTTPClients(responseCache: responseCache)
        return services
    }
}
