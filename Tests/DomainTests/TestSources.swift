import Dispatch
import Domain
import Foundation
import Synchronization

/// An in-memory source that answers after a delay, deterministically, for fan-out tests.
struct ScriptedSource: ItemSource {
    enum Behaviour: Sendable {
        case items([String], after: Double)
        case failure(SourceError, after: Double)
        /// Emits the first batch at once, then never finishes.
        case hangs(afterEmitting: [String])
    }

    let behaviour: Behaviour

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        switch behaviour {
        case .items(let titles, let delay):
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                receiver.emit(titles.map { Item(kind: .record, id: $0, title: $0) })
                receiver.finish()
            }
        case .failure(let error, let delay):
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { receiver.fail(error) }
        case .hangs(let titles):
            receiver.emit(titles.map { Item(kind: .record, id: $0, title: $0) })
        }
    }
}

func descriptor(_ id: String, timeout: Double = 5, concurrency: Int = 4) -> SourceDescriptor {
    SourceDescriptor(id: id, provider: "test", timeoutSeconds: timeout, concurrency: concurrency)
}

/// Runs one item source to completion.
func runToCompletion(_ source: any ItemSource, concurrency: Int = 4, timeout: Double = 10) async -> SourceReport {
    await AggregateSourcesUseCase().execute(
        [PlannedSource(descriptor: descriptor("s", timeout: timeout, concurrency: concurrency), plan: .load(source))]
    ).sources[0]
}

/// Counts how many jobs run at once.
final class ConcurrencyProbe: Sendable {
    private let state = Mutex((current: 0, peak: 0))

    func enter() { state.withLock { $0.current += 1; $0.peak = max($0.peak, $0.current) } }
    func leave() { state.withLock { $0.current -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
}
