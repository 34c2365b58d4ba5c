import Domain
import Foundation
import Presentation
import Testing

@Suite("WatchViewModel: new items as told, a lookup by id, memory bounded by the latest results")
struct WatchViewModelTests {
    private func report(_ source: String, _ ids: [String]) -> SourceReport {
        SourceReport(
            descriptor: SourceDescriptor(id: source, provider: "files", timeoutSeconds: 10, concurrency: 1), status: .ok,
            items: ids.map { Item(kind: .record, id: $0, title: $0) })
    }

    @Test("it marks exactly the items the engine says are new, never a difference of results of its own")
    func marksWhatItIsTold() {
        let model = WatchViewModel(sources: ["feed"])
        model.source(didFinish: report("feed", ["a", "b"]), next: nil, newItemIDs: [])
        #expect(model.snapshot.sources[0].newItemIDs.isEmpty)
        // "c" is not in the previous result, yet only "a" is new by the engine (c came back, a never seen).
        model.source(didFinish: report("feed", ["c", "a", "b"]), next: nil, newItemIDs: ["a"])
        #expect(model.snapshot.sources[0].newItemIDs == ["a"])
        model.source(didFinish: report("feed", ["c", "a", "b"]), next: nil, newItemIDs: [])
        #expect(model.snapshot.sources[0].newItemIDs.isEmpty, "new in its latest cycle only")
        // A long watch keeps per source its latest report and its marks, whatever the number of cycles.
        for cycle in 0..<1_000 {
            let ids = (0..<3).map { "n\(cycle)-\($0)" }
            model.source(didFinish: report("feed", ids), next: nil, newItemIDs: Set(ids))
        }
        #expect(model.snapshot.sources[0].newItemIDs == ["n999-0", "n999-1", "n999-2"])
    }

    @Test("a source is found by id; one the manifest did not list is shown after the others")
    func lookupByID() {
        let model = WatchViewModel(sources: ["a", "b"])
        model.sourcesDidStart(["b", "late"])
        model.source(didFinish: report("b", ["1"]), next: nil, newItemIDs: [])
        model.source(didFinish: report("other", ["2"]), next: nil, newItemIDs: [])
        #expect(model.source("b")?.report?.items.map(\.id) == ["1"])
        #expect(model.source("b")?.isRunning == false)
        #expect(model.source("late")?.isRunning == true)
        #expect(model.source("a")?.report == nil)
        #expect(model.source("nope") == nil)
        #expect(model.snapshot.sources.map(\.id) == ["a", "b", "late", "other"])
    }

    @Test("a reload forgets the sources it removed")
    func reloadForgets() {
        let model = WatchViewModel(sources: ["a", "b"])
        model.source(didFinish: report("a", ["1"]), next: nil, newItemIDs: [])
        model.source(didFinish: report("b", ["2"]), next: nil, newItemIDs: ["2"])
        model.replaceSources(["b"])
        #expect(model.snapshot.sources.map(\.id) == ["b"])
        #expect(model.source("a") == nil)
        model.replaceSources(["a", "b"])
        #expect(model.snapshot.sources.first?.report == nil, "a came back as a new source, its old state gone")
        #expect(model.source("b")?.newItemIDs == ["2"], "a kept source keeps its state")
    }
}
