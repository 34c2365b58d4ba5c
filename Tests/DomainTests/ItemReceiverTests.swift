import Domain
import Foundation
import Synchronization
import Testing

@Suite("Item receiver")
struct ItemReceiverTests {
    /// What a receiver reported, captured for assertions.
    final class Recorder: Sendable {
        final class Log: Sendable {
            let items = Mutex<[String]>([])
            let outcome = Mutex<(ItemReceiver.Outcome, [String])?>(nil)
            let finishes = Mutex(0)
        }

        let log = Log()
        let receiver: ItemReceiver

        init() {
            let log = self.log
            receiver = ItemReceiver(
                onItems: { batch in log.items.withLock { $0 += batch.map(\.id) } },
                onFinish: { result, warnings in
                    log.outcome.withLock { $0 = (result, warnings) }
                    log.finishes.withLock { $0 += 1 }
                })
        }

        var items: [String] { log.items.withLock { $0 } }
        var outcome: (ItemReceiver.Outcome, [String])? { log.outcome.withLock { $0 } }
        var finishes: Int { log.finishes.withLock { $0 } }
    }

    private func item(_ id: String) -> Item { Item(kind: .record, id: id, title: id) }

    @Test("the first finish wins and later items are ignored")
    func firstFinishWins() {
        let recorder = Recorder()
        let receiver = recorder.receiver
        receiver.emit([item("a")])
        #expect(receiver.close(.timedOut(SourceError(.timeout, "late"))))
        receiver.emit([item("b")])
        receiver.finish()
        #expect(recorder.items == ["a"])
        #expect(recorder.finishes == 1)
        #expect(recorder.outcome?.0 == .timedOut(SourceError(.timeout, "late")))
    }

    @Test("one failed request of several becomes a warning naming it; the others' items are kept in order")
    func partialFailure() {
        let recorder = Recorder()
        recorder.receiver.finish(collecting: [
            (label: "Seoul", result: .success([item("seoul")])),
            (label: "Nowhere", result: .failure(SourceError(.notFound, "city not found"))),
            (label: "Busan", result: .success([item("busan")])),
        ])
        #expect(recorder.items == ["seoul", "busan"])
        let outcome = recorder.outcome
        #expect(outcome?.0 == .completed)
        #expect(outcome?.1 == ["Nowhere: notFound: city not found"])
    }

    @Test("the source fails only when every request failed, with each one named")
    func allFailed() {
        let recorder = Recorder()
        recorder.receiver.finish(collecting: [
            (label: "a", result: .failure(SourceError(.unauthorized, "bad key"))),
            (label: "b", result: .failure(SourceError(.unauthorized, "bad key"))),
        ])
        guard case .failed(let error)? = recorder.outcome?.0 else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.kind == .unauthorized)
        #expect(error.message == "all 2 requests failed: a: bad key; b: bad key")
    }

    @Test("a single failed request keeps its kind and is prefixed with its label")
    func singleFailure() {
        let recorder = Recorder()
        recorder.receiver.finish(collecting: [(label: "x.csv", result: .failure(SourceError(.parse, "line 3: bad row")))])
        #expect(recorder.outcome?.0 == .failed(SourceError(.parse, "x.csv: line 3: bad row")))
    }

    @Test("a failure of kind timeout times the source out, whichever fired first: a request's timeout or the deadline")
    func timeoutFailure() {
        let recorder = Recorder()
        recorder.receiver.finish(collecting: [
            (label: "a", result: .failure(SourceError(.timeout, "no answer within 1 s"))),
            (label: "b", result: .failure(SourceError(.timeout, "the source's time ran out"))),
        ])
        guard case .timedOut(let error)? = recorder.outcome?.0 else {
            Issue.record("expected a timeout, got \(String(describing: recorder.outcome?.0))")
            return
        }
        #expect(error.kind == .timeout)
        let direct = Recorder()
        direct.receiver.fail(SourceError(.network, "reset"))
        #expect(direct.outcome?.0 == .failed(SourceError(.network, "reset")))
    }
}

/// A source written against 0.9, when `ItemReceiver` was `ItemSink`: it must keep compiling (the deprecated
/// typealias), which this target does only while it does. Deprecated itself, so using the old name warns nowhere.
@available(*, deprecated, message: "spells the 0.9 name on purpose")
private struct SourceWrittenFor09: ItemSource {
    func load(_ context: LoadContext, into sink: ItemSink) { sink.finish() }
}
