import Dispatch
import Foundation

/// A configured source, ready to load: what the aggregate use case fans out over.
///
/// Each capability's use case (`FetchWeatherUseCase`, `ReadRecordsUseCase`, …) is an `ItemSource` built
/// over a repository protocol; providers implement the repository, never this.
public protocol ItemSource: Sendable {
    /// Starts loading and returns at once. Delivers items through `receiver` and finishes it exactly once,
    /// from any thread. Must not block the calling thread on network or disk waits of its own jobs.
    func load(_ context: LoadContext, into receiver: ItemReceiver)
}

/// What a source is given for one run.
public struct LoadContext: Sendable {
    /// How many requests (cities, repositories, pages, files) may be in flight at once.
    public var concurrency: Int
    /// Cancelled when the source times out, the run's deadline passes or the run is cancelled. It is the one
    /// carrier of the source's deadline (`cancellation.deadline`).
    public var cancellation: CancellationToken
    /// Where work that must end before the run does is registered (a program being stopped).
    public var lingering: LingeringWork

    /// A context; `concurrency` below 1 is taken as 1.
    public init(concurrency: Int, cancellation: CancellationToken, lingering: LingeringWork = LingeringWork()) {
        self.concurrency = max(1, concurrency)
        self.cancellation = cancellation
        self.lingering = lingering
    }

    /// When the source's time is up (`cancellation`'s deadline; far in the future when it has none).
    public var deadline: DispatchTime { cancellation.deadline ?? .distantFuture }
}
