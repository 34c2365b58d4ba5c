import Foundation

/// Syndication feeds, over the network or from files.
public protocol FeedRepository: Sendable {
    /// Reads one feed, keeping at most `maxEntries` entries in document order.
    func feed(
        at location: FeedLocation, maxEntries: Int, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<Feed, SourceError>) -> Void
    )
}
