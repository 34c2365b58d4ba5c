import Foundation
import Synchronization

/// Reads every unit of a record repository (files, program runs) concurrently and presents the records as
/// they are read: the first unread unit streams, the ones read ahead of it wait their turn
/// (`OrderedHandoff`), so the source's items keep the units' order.
///
/// The shared partial-failure policy applies per unit; a unit that fails part-way keeps the records read
/// before the failure.
public struct ReadRecordsUseCase: ItemSource {
    /// Untaken batches of the unit being passed on before its reader waits.
    static let handoffCapacity = 8

    private let repository: any RecordRepository

    /// Reads every unit of `repository` as records.
    public init(repository: any RecordRepository) {
        self.repository = repository
    }

    /// Reads the units, at most `context.concurrency` at once, emits their records as items and finishes `receiver`
    /// once.
    public func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let units: [String]
        switch repository.recordUnits() {
        case .success(let value): units = value
        case .failure(let error): return receiver.fail(error)
        }
        let repository = self.repository
        if units.count == 1 {
            // One unit has its order already: its batches go straight to the receiver, no hand-off thread.
            return OrderedFanOut.run(
                count: 1, limit: 1, cancellation: context.cancellation, notStarted: { () -> SourceError? in .notStarted },
                job: { _, finished in
                    repository.streamRecords(
                        in: units[0], cancellation: context.cancellation,
                        onRecords: { records in receiver.emit(records.map { $0.toItem() }) }, completion: finished)
                },
                completion: { errors in receiver.finish(reporting: zip(units, errors).map { (label: $0, error: $1) }) })
        }
        let handoff = OrderedHandoff<[Item]>(producers: units.count, capacity: Self.handoffCapacity)
        let errors = Mutex<[SourceError?]>([])
        let done = DispatchGroup()
        done.enter()  // every unit read (or not started)
        done.enter()  // every batch passed on
        handoff.drain(name: "aggregate.units", { _, items, _ in receiver.emit(items) }, done: { done.leave() })
        OrderedFanOut.run(
            count: units.count, limit: context.concurrency, cancellation: context.cancellation,
            notStarted: { () -> SourceError? in .notStarted },
            job: { index, finished in
                repository.streamRecords(
                    in: units[index], cancellation: context.cancellation,
                    onRecords: { records in handoff.push(records.map { $0.toItem() }, from: index) },
                    completion: { error in
                        handoff.finish(index)
                        finished(error)
                    })
            },
            completion: { results in
                for index in results.indices { handoff.finish(index) }  // units never started
                errors.withLock { $0 = results }
                done.leave()
            })
        done.notify(queue: .global()) {
            receiver.finish(reporting: zip(units, errors.withLock { $0 }).map { (label: $0, error: $1) })
        }
    }
}
