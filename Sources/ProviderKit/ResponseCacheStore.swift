import StoreSupport

// The response cache's store protocols live in StoreSupport, which both stores implement without depending on
// ProviderKit. These names keep them where provider packages have found them since 0.9.0.

/// Where HTTP responses are kept between runs (StoreSupport's `ResponseCacheStore`).
public typealias ResponseCacheStore = StoreSupport.ResponseCacheStore
/// A server's answer as the cache keeps it (StoreSupport's `StoredResponse`).
public typealias StoredResponse = StoreSupport.StoredResponse
/// The right to make one request for everybody sharing a store (StoreSupport's `ResponseFetchLease`).
public typealias ResponseFetchLease = StoreSupport.ResponseFetchLease
/// What a store shared by several processes adds to the response cache (StoreSupport's `SharedResponseCacheStore`).
public typealias SharedResponseCacheStore = StoreSupport.SharedResponseCacheStore
