import Foundation

/// Reads every unit of a record repository (files, program runs) concurrently and presents the records as
/// they are read: the first unread unit streams, the ones read ahead of it wait their turn (`OrderedRelay`),
/// so the source's items keep the units' order.
///
/// The shared partial-failure policy applies per unit; a unit that fails part-way keeps the records read
/// before the failure.
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
        let relay = OrderedRelay<[Item]>(producers: units.count) { _, items in sink.emit(items) }
        OrderedFanOut.run(
            count: units.count, limit: context.concurrency, cancellation: context.cancellation,
            notStarted: { () -> SourceError? in .notStarted },
            job: { index, done in
                repository.streamRecords(
                    in: units[index], cancellation: context.cancellation,
                    onRecords: { records in relay.push(records.map { $0.toItem() }, from: index) },
                    completion: { error in
                        relay.finish(index)
                        done(error)
                    })
            },
            completion: { errors in
                for index in errors.indices { relay.finish(index) }  // units never started
                sink.finish(reporting: zip(units, errors).map { (label: $0, error: $1) })
            })
    }
}
