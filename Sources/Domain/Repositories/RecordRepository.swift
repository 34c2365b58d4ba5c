import Foundation

/// A source of generic records made of independent units (files, runs of a program, queries of an API).
public protocol RecordRepository: Sendable {
    /// The units to read this run, in order (for files: the glob matches, sorted). Called once per load.
    func recordUnits() -> Result<[String], SourceError>

    /// Reads one unit in batches as they are read, so a large unit never has to be held whole. `onRecords`
    /// gets the batches in order, never two at once; `completion` follows exactly once: nil when the unit was
    /// read to its end, else why not (the batches before the failure stand).
    func streamRecords(
        in unit: String, cancellation: CancellationToken,
        onRecords: @escaping @Sendable ([Record]) -> Void,
        completion: @escaping @Sendable (SourceError?) -> Void
    )
}

/// A record repository whose units come whole (one API response each): it implements `records(in:)` and
/// gets `streamRecords` from it, as one batch.
public protocol WholeUnitRecordRepository: RecordRepository {
    /// Reads one unit. `completion` is called exactly once, from any thread.
    func records(
        in unit: String, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<[Record], SourceError>) -> Void
    )
}

extension WholeUnitRecordRepository {
    /// Reads the unit whole with `records(in:cancellation:completion:)` and delivers it as one batch.
    public func streamRecords(
        in unit: String, cancellation: CancellationToken,
        onRecords: @escaping @Sendable ([Record]) -> Void,
        completion: @escaping @Sendable (SourceError?) -> Void
    ) {
        records(in: unit, cancellation: cancellation) { result in
            switch result {
            case .success(let records):
                if !records.isEmpty { onRecords(records) }
                completion(nil)
            case .failure(let error):
                completion(error)
            }
        }
    }
}
