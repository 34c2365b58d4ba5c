import Foundation

/// Presents the records of a streaming repository as they arrive; a failure keeps what came before it.
public struct StreamRecordsUseCase: ItemSource {
    private let repository: any RecordStreamRepository

    public init(repository: any RecordStreamRepository) {
        self.repository = repository
    }

    public func load(_ context: LoadContext, into sink: ItemSink) {
        repository.streamRecords(
            cancellation: context.cancellation, lingering: context.lingering,
            onRecords: { records in sink.emit(records.map { $0.toItem() }) },
            onWarning: { message in sink.warn(message) },
            completion: { error in
                switch error {
                case nil: sink.finish()
                case let error? where error.kind == .timeout: sink.close(.timedOut(error))
                case let error?: sink.fail(error)
                }
            })
    }
}
