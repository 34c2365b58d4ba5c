import Foundation

/// Reads every unit of a record repository (files, program runs) concurrently and presents the records.
public struct ReadRecordsUseCase: ItemSource {
    private let repository: any RecordRepository

    public init(repository: any RecordRepository) {
        self.repository = repository
    }

    public func load(_ context: LoadContext, into sink: ItemSink) {
        let units: [String]
        switch repository.recordUnits() {
        case .success(let value): units = value
        case .failure(let error): return sink.fail(error)
        }
        let repository = self.repository
        sink.collect(units, context: context) { index, done in
            repository.records(in: units[index], cancellation: context.cancellation) { result in
                done(result.map { $0.map { $0.toItem() } })
            }
        }
    }
}
