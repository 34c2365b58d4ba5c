import Foundation

/// A source of generic records produced by one run of something that streams them (an external program
/// writing JSON lines) rather than by independent units.
///
/// Unlike `RecordRepository`, records arrive in batches while the run goes on, and a failure part-way
/// (a bad line, a crash, the deadline) keeps every record delivered before it.
public protocol RecordStreamRepository: Sendable {
    /// Starts the run and returns at once.
    /// - Parameters:
    ///   - cancellation: stops the run early (the source's result is no longer wanted); its `deadline` is when
    ///     the run must be stopped and reported as a `.timeout`.
    ///   - lingering: where what the run starts that may outlive its completion (a program being stopped) is
    ///     registered until it is gone, so that the aggregate run waits for it.
    ///   - onRecords: each batch, in the stream's order, never concurrently with another call.
    ///   - onWarning: problems that do not fail the run.
    ///   - completion: called exactly once, after every batch and warning: nil when the run succeeded, else why
    ///     it failed.
    func streamRecords(
        cancellation: CancellationToken, lingering: LingeringWork,
        onRecords: @escaping @Sendable ([Record]) -> Void,
        onWarning: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (SourceError?) -> Void
    )
}
