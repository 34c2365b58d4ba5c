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
        OrderedFanOut.run(
            count: units.count, limit: context.concurrency, cancellation: context.cancellation,
            notStarted: { Result<[Item], SourceError>.failure(SourceError(.timeout, "not started")) },
            job: { index, done in
                repository.records(in: units[index], cancellation: context.cancellation) { result in
                    done(result.map { $0.map { $0.toItem() } })
                }
            },
            completion: { results in
                sink.finish(collecting: zip(units, results).map { (label: $0, result: $1) })
            }
        )
    }
}
