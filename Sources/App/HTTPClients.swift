import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderKit

/// How the container gives one source its HTTP clients: the live client (URLSession, or AsyncHTTPClient where
/// a CA or proxy needs it; made on the first request), wrapped in the response cache when the run gives the
/// source one. The decorator is composed
/// here, not inside the live client, and what the cache did is recorded in the run's storage
/// (`ResponseCachePolicy.activity`), never passed through a provider's options.
struct SourceHTTPClients: HTTPClientFactory {
    var live: any HTTPClientFactory
    var responseCache: ResponseCachePolicy?
    /// Told of every request's outcome (serve's metrics); nil counts nothing.
    var recorder: (any HTTPRequestRecorder)?

    func makeClient(_ configuration: HTTPClientConfiguration) -> any HTTPFetching {
        var client = live.makeClient(configuration)
        if let recorder, let source = configuration.sourceID {
            client = RecordingHTTPClient(upstream: client, source: source, recorder: recorder)
        }
        guard let responseCache else { return client }
        return CachingHTTPClient(upstream: client, policy: responseCache, logger: configuration.logger, recorder: recorder)
    }
}

/// What the run's storage gives one source: where its recent queries go and its response-cache policy.
struct SourceServices: Sendable {
    var moviesQueries: (any MoviesQueriesRepository)?
    /// Nil when the source's TTL is 0 or there is no store.
    var responseCache: ResponseCachePolicy?

    /// The services as the source's provider sees them, its HTTP clients made by `live` (each request's outcome
    /// told to `recorder`).
    func forProvider(live: any HTTPClientFactory, recorder: (any HTTPRequestRecorder)? = nil) -> ProviderServices {
        var services = ProviderServices(moviesQueries: moviesQueries)
        services.http = SourceHTTPClients(live: live, responseCache: responseCache, recorder: recorder)
        return services
    }
}
