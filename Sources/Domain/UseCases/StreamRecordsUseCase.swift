import Foundation

/// Presents the records of a streaming repository as they arrive; a failure keeps what came before it.
public struct StreamRecordsUseCase: ItemSource {
    private let repository: any RecordStreamRepository

    /// Streams every unit of `repository` as records.
    public init(repository: any RecordStreamRepository) {
        self.repository = repository
    }

    /// Streams the units, at most `context.concurrency` at once, emitting each batch of records as it arrives, and
    /// finishes `receiver` once.
    public func load(_ context: LoadContext, into receiver: ItemReceiver) {
        repository.streamRecords(
            cancellation: context.cancellation, lingering: context.lingering,
            onRecords: { records in receiver.emit(records.map { $0.toItem() }) },
            onWarning: { message in receiver.warn(message) },
            completion: { error in
                switch error {
                case nil: receiver.finish()
                case let error? where error.kind == .timeout: receiver.close(.timedOut(error))
                case let error?: receiver.fail(error)
                }
            })
    }
}
