import Dispatch
import Foundation

/// A configured source, ready to load: what the aggregate use case fans out over.
///
/// Each capability's use case (`FetchWeatherUseCase`, `ReadRecordsUseCase`, …) is an `ItemSource` built
/// over a repository protocol; providers implement the repository, never this.
public protocol ItemSource: Sendable {
    /// Starts loading and returns at once. Delivers items through `sink` and finishes it exactly once,
    /// from any thread. Must not block the calling thread on network or disk waits of its own jobs.
    func load(_ context: LoadContext, into sink: ItemSink)
}

/// What a source is given for one run.
public struct LoadContext: Sendable {
    /// How many requests (cities, repositories, pages, files) may be in flight at once.
    public var concurrency: Int
    /// Cancelled when the source times out or the run's deadline passes.
    public var cancellation: CancellationToken
    /// When the source's time is up; requests should not outlive it.
    public var deadline: DispatchTime

    public init(concurrency: Int, cancellation: CancellationToken = CancellationToken(), deadline: DispatchTime) {
        self.concurrency = max(1, concurrency)
        self.cancellation = cancellation
        self.deadline = deadline
    }

    /// Seconds left before the deadline (never negative).
    public var remainingSeconds: Double {
        let now = DispatchTime.now().uptimeNanoseconds
        let end = deadline.uptimeNanoseconds
        return end > now ? Double(end - now) / 1e9 : 0
    }
}
