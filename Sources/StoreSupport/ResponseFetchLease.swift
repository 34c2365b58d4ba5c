import Domain
import Foundation

/// The right to make one request for everybody sharing a store: while a process holds the lease of a response
/// cache key, the others that want the same response wait for it and then read what it stored, instead of
/// asking the service again. A holder that dies loses it (its database session ends).
public protocol ResponseFetchLease: Sendable {
    /// Gives the lease up (idempotent), waiting briefly for the store to confirm so a waiter gets it at once:
    /// call it off the shared pool.
    func release()
}

/// What a store shared by several processes adds to the response cache. A store local to one process (SQLite)
/// does not implement it: the HTTP layer then works as before.
public protocol SharedResponseCacheStore: ResponseCacheStore {
    /// Takes the lease of `key`, waiting while another process holds it, at most until `cancellation`'s
    /// deadline (the source's timeout) or until it is cancelled. Blocks the calling thread: the HTTP layer calls it on a thread of
    /// its own, never on the shared pool.
    /// - Returns: nil when it could not be had in time (the caller then fetches without it: nobody waits forever).
    func acquireFetchLease(forKey key: String, cancellation: CancellationToken) -> (any ResponseFetchLease)?

    /// Until when the rate-limit budget `key` (a host and a credential's hash: no secret) is spent, if a process
    /// learnt that it is.
    func rateLimit(_ key: String) throws(SourceError) -> Date?

    /// A process learnt that budget `key` is spent until `until` (a later time already stored is kept).
    func recordRateLimit(_ key: String, until: Date) throws(SourceError)
}
