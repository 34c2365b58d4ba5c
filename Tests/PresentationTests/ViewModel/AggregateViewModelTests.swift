import Dispatch
import Domain
import Foundation
import Presentation
import Synchronization
import Testing

@Suite("Aggregate view model")
struct AggregateViewModelTests {
    private let descriptors = ["a", "b", "c"].map { SampleReports.descriptor($0, "files") }

    private func report(_ id: String, _ status: SourceStatus = .ok, items: Int = 0, error: SourceError? = nil,
                        message: String? = nil) -> SourceReport {
        SourceReport(
            descriptor: SampleReports.descriptor(id, "files"), status: status,
            items: (0..<items).map { Item(kind: .record, id: "\($0)", title: "t\($0)") }, error: error,
            message: message, duration: 0.25)
    }

    @Test("rows start loading in manifest order and finish one by one")
    func transitions() {
        let viewModel = AggregateViewModel()
        #expect(viewModel.state == AggregateViewState(rows: [], isFinished: false))

        viewModel.aggregateDidStart(descriptors)
        #expect(viewModel.state.rows == descriptors.map { SourceRow(id: $0.id, provider: "files") })
        #expect(!viewModel.state.isFinished)

        viewModel.source("b", didDeliver: 2)
        #expect(viewModel.state.rows[1].itemCount == 2)
        #expect(viewModel.state.rows[1].phase == .loading)

        viewModel.sourceDidFinish(report("c", .error, error: SourceError(.unauthorized, "Bad credentials")))
        viewModel.sourceDidFinish(report("b", items: 3))
        #expect(viewModel.state.rows.map(\.id) == ["a", "b", "c"])
        #expect(viewModel.state.rows[1] == SourceRow(
            id: "b", provider: "files", phase: .finished(.ok), itemCount: 3, duration: 0.25))
        #expect(viewModel.state.rows[2].phase == .finished(.error))
        #expect(viewModel.state.rows[2].message == "unauthorized: Bad credentials")
        #expect(!viewModel.state.isFinished)
        #expect(viewModel.report == nil)

        viewModel.sourceDidFinish(report("a", .skipped, message: "disabled in the manifest"))
        #expect(viewModel.state.rows[0].message == "disabled in the manifest")
        #expect(viewModel.state.isFinished)
        #expect(viewModel.report?.sources.map(\.id) == ["a", "b", "c"])
        #expect(viewModel.report?.sources[1].items.count == 3)
    }

    @Test("a run with no sources is finished as soon as it starts")
    func noSources() {
        let viewModel = AggregateViewModel()
        viewModel.aggregateDidStart([])
        #expect(viewModel.state == AggregateViewState(rows: [], isFinished: true))
        #expect(viewModel.report?.sources.isEmpty == true)
    }

    @Test("late or stale events never undo progress")
    func staleEvents() {
        let viewModel = AggregateViewModel()
        viewModel.aggregateDidStart(descriptors)
        viewModel.source("a", didDeliver: 5)
        viewModel.source("a", didDeliver: 3)
        #expect(viewModel.state.rows[0].itemCount == 5)
        viewModel.sourceDidFinish(report("a", items: 5))
        viewModel.source("a", didDeliver: 7)
        viewModel.sourceDidFinish(report("a", .error, error: SourceError(.timeout, "late")))
        #expect(viewModel.state.rows[0] == SourceRow(
            id: "a", provider: "files", phase: .finished(.ok), itemCount: 5, duration: 0.25))
    }

    @Test("a source that finishes before the run's start is reported still, in manifest order")
    func finishBeforeStart() {
        let viewModel = AggregateViewModel()
        viewModel.sourceDidFinish(report("c", items: 1))
        viewModel.source("b", didDeliver: 4)
        #expect(!viewModel.state.isFinished)
        viewModel.aggregateDidStart(descriptors)
        #expect(viewModel.state.rows.map(\.id) == ["a", "b", "c"])
        #expect(viewModel.state.rows[1].itemCount == 4)
        #expect(viewModel.state.rows[2].phase == .finished(.ok))
    }

    @Test("a new start after a finished run begins a fresh run")
    func restart() {
        let viewModel = AggregateViewModel()
        viewModel.aggregateDidStart(Array(descriptors.prefix(1)))
        viewModel.sourceDidFinish(report("a", items: 2))
        #expect(viewModel.state.isFinished)
        viewModel.aggregateDidStart(descriptors)
        #expect(viewModel.state.rows == descriptors.map { SourceRow(id: $0.id, provider: "files") })
        #expect(viewModel.report == nil)
    }

    @Test("observers get the current state at once, then every change")
    func observing() {
        let viewModel = AggregateViewModel()
        viewModel.aggregateDidStart(descriptors)
        let seen = Mutex<[AggregateViewState]>([])
        viewModel.observe { state in seen.withLock { $0.append(state) } }
        #expect(seen.withLock { $0.count } == 1)
        viewModel.source("a", didDeliver: 1)
        viewModel.source("a", didDeliver: 1)  // no change, no call
        viewModel.sourceDidFinish(report("a", items: 1))
        let states = seen.withLock { $0 }
        #expect(states.count == 3)
        #expect(states.last == viewModel.state)
    }

    @Test("events racing in from many threads end in manifest order with serialised, monotonic updates")
    func concurrentEvents() async {
        let count = 40
        let descriptors = (0..<count).map { SampleReports.descriptor("s\($0)", "files") }
        let viewModel = AggregateViewModel()
        struct Seen { var calls = 0; var active = 0; var overlapped = false; var finishedCounts: [Int] = [] }
        let seen = Mutex(Seen())
        viewModel.observe { state in
            seen.withLock { $0.active += 1; $0.overlapped = $0.overlapped || $0.active > 1 }
            let finished = state.rows.filter(\.isFinished).count
            seen.withLock {
                $0.calls += 1
                $0.finishedCounts.append(finished)
                $0.active -= 1
            }
        }

        // Each source's events in its own order on one thread; sources and the start interleave freely.
        enum Event: Sendable { case start, deliver(String, Int), finish(SourceReport) }
        var streams: [[Event]] = (0..<count).map { index in
            let id = "s\(index)"
            return (1...3).map { Event.deliver(id, $0) } + [.finish(report(id, index % 5 == 0 ? .error : .ok, items: 3))]
        }
        streams.insert([.start], at: count / 2)
        let shuffled = streams.shuffled()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: shuffled.count) { index in
                    for event in shuffled[index] {
                        switch event {
                        case .start: viewModel.aggregateDidStart(descriptors)
                        case .deliver(let id, let n): viewModel.source(id, didDeliver: n)
                        case .finish(let report): viewModel.sourceDidFinish(report)
                        }
                    }
                }
                done.resume()
            }
        }

        let state = viewModel.state
        #expect(state.isFinished)
        #expect(state.rows.map(\.id) == descriptors.map(\.id))
        #expect(state.rows.allSatisfy { $0.itemCount == 3 && $0.provider == "files" })
        #expect(state.rows[5].phase == .finished(.error))
        let observed = seen.withLock { $0 }
        #expect(!observed.overlapped)
        #expect(observed.finishedCounts == observed.finishedCounts.sorted())
        #expect(observed.finishedCounts.last == count)
        #expect(viewModel.report?.sources.map(\.id) == descriptors.map(\.id))
    }
}
