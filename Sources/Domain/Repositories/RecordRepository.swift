import Foundation

/// A source of generic records made of independent units (files, runs of a program).
public protocol RecordRepository: Sendable {
    /// The units to read this run, in order (for files: the glob matches, sorted). Called once per load.
    func recordUnits() -> Result<[String], SourceError>

    /// Reads one unit. `completion` is called exactly once, from any thread.
    func records(
        in unit: String, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<[Record], SourceError>) -> Void
    )
}
