import Dispatch
import Foundation

/// A source of generic records produced by one run of something that streams them (an external program
/// writing JSON lines) rather than by independent units.
///
/// Unlike `RecordRepository`, records arrive in batches while the run goes on, and a failure part-way
/// (a bad line, a crash, the deadline) keeps every record delivered before it.
public protocol RecordStreamRepository: Sendable {
    /// Starts the run and returns at once.
    /// - Parameters:
    ///   - deadline: when the run must be stopped and reported as a `.timeout`.
    ///   - cancellation: stops the run early (the source's result is no longer wanted).
    ///   - onRecords: each batch, in the stream's order, never concurrently with another call.
    ///   - onWarning: problems that do not fail the run.
    ///   - completion: called exactly once, after every batch and warning: nil when the run succeeded, else why
    ///     it failed.
    func streamRecords(
        deadline: DispatchTime, cancellation: CancellationToken,
        onRecords: @escaping @Sendable ([Record]) -> Void,
        onWarning: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (SourceError?) -> Void
    )
}
