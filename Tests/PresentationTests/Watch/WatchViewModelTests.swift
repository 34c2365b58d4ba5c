import Domain
import Foundation
import Presentation
import Testing

@Suite("WatchViewModel: new items, and memory bounded by the latest results")
struct WatchViewModelTests {
    private func report(_ source: String, _ ids: [String]) -> SourceReport {
        SourceReport(
            descriptor: SourceDescriptor(id: source, provider: "files", timeoutSeconds: 10, concurrency: 1), status: .ok,
            items: ids.map { Item(kind: .record, id: $0, title: $0) })
    }

    @Test("an item not in the first cycle is new while it is in the result; the marks never outgrow the latest result")
    func newIDsFollowTheLatestResult() {
        let model = WatchViewModel(sources: ["feed"])
        model.source(didFinish: report("feed", ["a", "b"]), next: nil)
        #expect(model.snapshot.sources[0].newItemIDs.isEmpty, "the first cycle is the baseline")
        model.source(didFinish: report("feed", ["c", "a", "b"]), next: nil)
        #expect(model.snapshot.sources[0].newItemIDs == ["c"])
        // A long watch: each cycle a window of 3 new items. The marks stay those of the latest result.
        for cycle in 0..<1_000 {
            model.source(didFinish: report("feed", (0..<3).map { "n\(cycle)-\($0)" }), next: nil)
        }
        #expect(model.snapshot.sources[0].newItemIDs == ["n999-0", "n999-1", "n999-2"])
    }

    @Test("a reload forgets the sources it removed")
    func reloadForgets() {
        let model = WatchViewModel(sources: ["a", "b"])
        model.source(didFinish: report("a", ["1"]), next: nil)
        model.source(didFinish: report("b", ["2"]), next: nil)
        model.replaceSources(["b"])
        #expect(model.snapshot.sources.map(\.id) == ["b"])
        model.replaceSources(["a", "b"])
        #expect(model.snapshot.sources.first?.report == nil, "a came back as a new source, its old state gone")
        model.source(didFinish: report("a", ["1", "x"]), next: nil)
        #expect(model.snapshot.sources.first?.newItemIDs.isEmpty == true, "its first cycle is a new baseline")
    }
}
