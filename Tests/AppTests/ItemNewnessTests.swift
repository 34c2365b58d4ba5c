@testable import App
import Domain
import Foundation
import Testing

@Suite("ItemNewness: which items of a cycle are new, by the item history or, without one, by memory")
struct ItemNewnessTests {
    private func report(_ ids: [String], status: SourceStatus = .ok, source: String = "feed") -> SourceReport {
        SourceReport(
            descriptor: SourceDescriptor(id: source, provider: "files", timeoutSeconds: 10, concurrency: 1), status: status,
            items: ids.map { Item(kind: .record, id: $0, title: $0) })
    }

    @Test("without a history: the first cycle is a first sight (all announced, none marked), then what the previous result lacked")
    func withoutHistory() {
        let newness = ItemNewness()
        let first = newness.news(of: report(["a", "b"]), history: nil, firstRun: false)
        #expect(first == NewItems(ids: ["a", "b"], isFirstSight: true))
        #expect(first.marked.isEmpty)
        let second = newness.news(of: report(["c", "a"]), history: nil, firstRun: false)
        #expect(second == NewItems(ids: ["c"], isFirstSight: false))
        #expect(second.marked == ["c"])
        // A failed cycle is no news and forgets nothing: the next result is compared with the one before it.
        #expect(newness.news(of: report([], status: .error), history: nil, firstRun: false) == .none)
        #expect(newness.news(of: report(["c", "a", "d"]), history: nil, firstRun: false).ids == ["d"])
    }

    @Test("with a history its answer counts, not the previous result: an item that came back is not new")
    func historyAnswers() {
        let newness = ItemNewness()
        #expect(newness.news(of: report(["a", "b"]), history: ["a", "b"], firstRun: true)
            == NewItems(ids: ["a", "b"], isFirstSight: true), "the source's first run ever: nothing to mark")
        #expect(newness.news(of: report(["b"]), history: [], firstRun: false).marked.isEmpty)
        let back = newness.news(of: report(["a", "b", "c"]), history: ["c"], firstRun: false)
        #expect(back == NewItems(ids: ["c"], isFirstSight: false), "a left and came back: not new to the history")
        // Ids a run's --since or --dedupe left out of the result were seen, not shown.
        #expect(newness.news(of: report(["a", "d"]), history: ["d", "e"], firstRun: false).ids == ["d"])
    }

    @Test("a watch's first cycle marks what the history never saw, unless it is the source's first run ever")
    func firstCycleWithHistory() {
        let restarted = ItemNewness()
        #expect(restarted.news(of: report(["a", "z"]), history: ["z"], firstRun: false).marked == ["z"])
        let fresh = ItemNewness()
        #expect(fresh.news(of: report([]), history: [], firstRun: true).isFirstSight)
        // Shown empty, then with items: the history still had nothing, but what the watch shows now is new.
        #expect(fresh.news(of: report(["a"]), history: ["a"], firstRun: true).marked == ["a"])
    }

    @Test("a reload forgets the sources it removed: one that comes back is a first sight again")
    func reloadForgets() {
        let newness = ItemNewness()
        _ = newness.news(of: report(["a"], source: "x"), history: nil, firstRun: false)
        _ = newness.news(of: report(["b"], source: "y"), history: nil, firstRun: false)
        newness.keep(only: ["y"])
        #expect(newness.news(of: report(["a"], source: "x"), history: nil, firstRun: false).isFirstSight)
        #expect(newness.news(of: report(["b", "c"], source: "y"), history: nil, firstRun: false) == NewItems(ids: ["c"], isFirstSight: false))
    }
}
