import Domain
import Foundation
import SQLiteStore
import Synchronization

/// The sinks' part of one run: gathers the items of the sources some sink takes (before `--new`: each sink
/// keeps its own history), then, once the run is done, has every sink queue what it never saw and send
/// what is pending (`DeliverToSinkUseCase`), all sinks at once.
final class SinkOffer: Sendable {
    private let sources: [String]
    private let sinks: [Manifest.Sink]
    /// Per planned source: whether a sink takes it.
    private let wanted: [Bool]
    private let items: Mutex<[[Item]]>

    /// - Parameter sources: the run's planned source ids, in plan order.
    init(sources: [String], sinks: [Manifest.Sink]) {
        self.sources = sources
        self.sinks = sinks
        self.wanted = sources.map { source in sinks.contains { $0.takes(source) } }
        self.items = Mutex(Array(repeating: [], count: sources.count))
    }

    /// A batch of the source at `index` (any thread).
    func take(_ index: Int, _ batch: [Item]) {
        guard wanted[index] else { return }
        items.withLock { $0[index].append(contentsOf: batch) }
    }

    /// Queues and sends for every sink; `completion` gets one report per sink, in manifest order.
    /// - Parameters:
    ///   - outbox: nil when the run has no store: nothing can be queued, and every sink reports it.
    ///   - send: false queues only (`--offline`).
    func deliver(
        outbox: (any SinkOutboxRepository)?, directory: SinkDirectory, storeKey: String, send: Bool,
        cancellation: CancellationToken, completion: @escaping @Sendable ([SinkReport]) -> Void
    ) {
        let gathered = items.withLock { items in
            defer { items = [] }
            return items
        }
        let reports = Mutex([SinkReport?](repeating: nil, count: sinks.count))
        let group = DispatchGroup()
        for (position, sink) in sinks.enumerated() {
            guard let outbox else {
                var report = SinkReport(id: sink.id)
                report.errors = ["the store is unavailable: nothing could be queued or sent"]
                report.unqueued = true
                reports.withLock { $0[position] = report }
                continue
            }
            let offered = zip(sources, gathered).flatMap { source, items in
                sink.takes(source) ? items.map { SinkItem(source: source, item: $0) } : []
            }
            group.enter()
            // One pass at a time per sink of a store, in this process (a watch runs several runs at once).
            SinkLanes.shared.serialize("\(storeKey)|\(sink.id)") { done in
                // Its secrets are read first (a file, a credential helper: on a thread of their own); a pass
                // that only queues (`--offline`) needs none.
                let build: (@escaping @Sendable (Result<any SinkTransport, SourceError>) -> Void) -> Void = send
                    ? { directory.transport(for: sink, cancellation: cancellation, completion: $0) }
                    : { $0(.failure(SourceError(.configuration, "--offline sends nothing"))) }
                build { transport in
                    let useCase = DeliverToSinkUseCase(
                        sink: sink.id, outbox: outbox, transport: transport, policy: SinkRetryPolicy(maxRetries: sink.maxRetries),
                        timing: SinkTiming(clock: cancellation.clock), grouping: sink.grouping)
                    useCase.execute(newItems: offered, batchSize: sink.batch, send: send, cancellation: cancellation) { report in
                        reports.withLock { $0[position] = report }
                        done()
                        group.leave()
                    }
                }
            }
        }
        group.notify(queue: .global()) {
            completion(reports.withLock { $0.compactMap { $0 } })
        }
    }
}

/// Runs work one at a time per key, in the order it came, without blocking a thread.
final class SinkLanes: Sendable {
    typealias Work = @Sendable (_ done: @escaping @Sendable () -> Void) -> Void

    static let shared = SinkLanes()

    /// Per key: the work running (first) and the work waiting behind it.
    private let lanes = Mutex<[String: [Work]]>([:])

    func serialize(_ key: String, _ work: @escaping Work) {
        let first = lanes.withLock { lanes -> Bool in
            lanes[key, default: []].append(work)
            return lanes[key]?.count == 1
        }
        if first { run(key, work) }
    }

    private func run(_ key: String, _ work: @escaping Work) {
        work { [self] in
            let next = lanes.withLock { lanes -> Work? in
                lanes[key]?.removeFirst()
                if lanes[key]?.isEmpty ?? true {
                    lanes[key] = nil
                    return nil
                }
                return lanes[key]?.first
            }
            if let next { run(key, next) }
        }
    }
}
