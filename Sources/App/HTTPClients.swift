import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderKit
import WasmPluginProvider

/// How the container gives one source its HTTP clients: the live client (libcurl), wrapped in the response cache
/// when the run gives the source one. The decorator is composed
/// here, not inside the live client, and what the cache did is recorded in the run's storage
/// (`ResponseCachePolicy.activity`), never passed through a provider's options.
struct SourceHTTPClients: HTTPClientFactory {
    var live: any HTTPClientFactory
    var responseCache: ResponseCachePolicy?
    /// Told of every request's outcome (serve's metrics); nil counts nothing.
    var recorder: (any HTTPRequestRecorder)?
    /// Set with `--offline` for a source without a response cache: every request fails with it, unsent.
    var offlineRefusal: OfflineRefusal?

    func makeClient(_ configuration: HTTPClientConfiguration) -> any HTTPFetching {
        if let offlineRefusal { return OfflineHTTPClient(refusal: offlineRefusal) }
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
    /// With `--offline` and no `responseCache`: the source's requests are refused.
    var offlineRefusal: OfflineRefusal?

    /// The services as the source's provider sees them, its HTTP clients made by `live` (each request's outcome
    /// told to `recorder`).
    func forProvider(
        live: any HTTPClientFactory, recorder: (any HTTPRequestRecorder)? = nil, pluginState: (any PluginStateStoring)? = nil
    ) -> ProviderServices {
        var services = ProviderServices(moviesQueries: moviesQueries)
        services[PluginStateStoreKey.self] = pluginState
        services.http = SourceHTTPClients(
            live: live, responseCache: responseCache, recorder: recorder, offlineRefusal: offlineRefusal)
        return services
    }
}

/// Why a source's requests are refused under `--offline`, and whom to tell that one was: the run's storage,
/// which then reports the source skipped rather than failed.
struct OfflineRefusal: Sendable {
    let reason: String
    let refused: @Sendable () -> Void
}

/// A source's client under `--offline` when it has no response cache: no request leaves the process.
private struct OfflineHTTPClient: HTTPFetching {
    let refusal: OfflineRefusal

    func fetch(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        refusal.refused()
        let error = SourceError(.network, refusal.reason)
        DispatchQueue.responseDelivery.async { completion(.failure(error)) }
    }
}
