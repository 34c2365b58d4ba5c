import App
import Domain
import Foundation
@testable import Server
import Testing

@Suite("ServeState: it announces and marks the items the engine says are new, and works out none itself")
struct ServeStateTests {
    private func report(_ source: String, _ ids: [String], status: SourceStatus = .ok) -> SourceReport {
        SourceReport(
            descriptor: SourceDescriptor(id: source, provider: "files", timeoutSeconds: 10, concurrency: 1), status: status,
            items: ids.map { Item(kind: .record, id: $0, title: $0) })
    }

    private func announced(_ events: EventLog, after id: Int) -> [String] {
        (events.events(after: id) ?? []).filter { $0.name == "item" }.map { event in
            let item = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any]
            return item?["id"] as? String ?? "?"
        }
    }

    @Test("an item event per id of the news, in the result's order; the view marks only what is not a first sight")
    func readsTheNews() {
        let events = EventLog()
        let state = ServeState(sources: ["notes"], events: events, metrics: ServeMetrics())
        state.watch(didFinish: report("notes", ["a", "b"]), next: nil, news: NewItems(ids: ["a", "b"], isFirstSight: true))
        #expect(announced(events, after: 0) == ["a", "b"], "a first sight announces each item once")
        #expect(state.source("notes")?.newItemIDs == [], "and marks none")
        let mark = events.lastID
        // "c" is not in the previous result, yet the engine says only "d" is new (c was seen before): so is it.
        state.watch(didFinish: report("notes", ["d", "c", "a", "b"]), next: nil, news: NewItems(ids: ["d"], isFirstSight: false))
        #expect(announced(events, after: mark) == ["d"])
        #expect(state.source("notes")?.newItemIDs == ["d"])
    }

    @Test("a fleet worker's stored report is read the same way")
    func fleetReports() {
        let events = EventLog()
        let state = ServeState(sources: ["notes"], events: events, metrics: ServeMetrics())
        state.fleetFollows(["notes"])
        let stored = FleetReport(report: report("notes", ["x", "y"]), newItemIDs: ["y"], finishedAt: Date(), next: Date())
        state.fleet(stored: stored, news: NewItems(ids: ["y"], isFirstSight: false))
        #expect(announced(events, after: 0) == ["y"])
        #expect(state.source("notes")?.newItemIDs == ["y"])
        #expect(state.source("elsewhere") == nil)
    }
}
