import App
import Domain
import Foundation
import Logging
@testable import Server
import Synchronization
import Testing

/// Keeps the messages logged at `info` or above.
private struct CapturedLog: LogHandler {
    final class Lines: Sendable {
        let all = Mutex<[String]>([])
    }
    let lines = Lines()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.all.withLock { $0.append(event.message.description) }
    }
}

@Suite("ServeState: it announces and marks the items the engine says are new, and works out none itself")
struct ServeStateTests {
    @Test("it says it is ready once every served source finished a cycle, and again when a reload added one that did")
    func readiness() {
        let handler = CapturedLog()
        let state = ServeState(
            sources: ["a", "b"], events: EventLog(), metrics: ServeMetrics(), logger: Logger(label: "t") { _ in handler })
        let readyLines = { handler.lines.all.withLock { $0.filter { $0.hasPrefix("serve: ready:") } } }
        state.watch(didFinish: report("a", ["1"]), next: nil, news: .none)
        #expect(readyLines().isEmpty && !state.isReady)
        state.watch(didFinish: report("b", ["2"]), next: nil, news: .none)
        #expect(readyLines() == ["serve: ready: every source finished a cycle (2 sources); /readyz answers 200"])
        #expect(state.isReady)
        state.watch(didFinish: report("a", ["1"]), next: nil, news: .none)
        #expect(readyLines().count == 1, "said once, not at every later cycle")

        state.reloaded(sources: ["a", "b", "c"])
        #expect(!state.isReady)
        state.watch(didFinish: report("c", ["3"]), next: nil, news: .none)
        #expect(readyLines().count == 2 && readyLines().last?.contains("(3 sources)") == true)
        #expect(state.isReady)
    }

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

extension ServeStateTests {
    @Test("ServeOutput: a report keeps only its new items, at most the ring's size a run; the ids and the new count reach the state")
    func serveOutput() {
        let events = EventLog()
        let state = ServeState(sources: ["a", "b"], events: events, metrics: ServeMetrics())
        let output = ServeOutput(state: state, announced: 3)
        let items = ["1", "2", "3", "4", "5"].map { Item(kind: .record, id: $0, title: $0) }
        output.write(items, of: report("a", []).descriptor, more: false)
        let a = output.finish(report("a", []), newItemIDs: ["2", "3", "4", "5"])
        #expect(a.items.map(\.id) == ["2", "3", "4"] && a.itemCount == 5, "the first three new items, the rest counted")
        output.write([Item(kind: .record, id: "x", title: "x")], of: report("b", []).descriptor, more: false)
        let b = output.finish(report("b", []), newItemIDs: ["x"])
        #expect(b.items.isEmpty && b.itemCount == 1, "past the ring's size: counted, not kept")
        let whole = output.finish(report("c", []), newItemIDs: nil)
        #expect(whole.itemCount == 0)

        state.watch(didFinish: a, next: nil, news: NewItems(ids: ["2", "3", "4"], isFirstSight: false))
        state.watch(didFinish: b, next: nil, news: NewItems(ids: [], isFirstSight: false))
        #expect(announced(events, after: 0) == ["2", "3", "4"])
        #expect(state.snapshot.latestItemIDs.mapValues(\.ids) == ["a": ["1", "2", "3", "4", "5"], "b": ["x"]])
        #expect(state.summary(state.snapshot.sources).newLastHour == 5, "every new item counted, announced or not")
        #expect(state.snapshot.sources.allSatisfy { $0.report?.items.isEmpty ?? true }, "the state keeps no item")
    }
}

@Test("PackedItemIDs gives back the ids it was given, in order: empty, long (multi-byte lengths) and any text")
func packedItemIDs() {
    let ids = ["", "a", String(repeating: "x", count: 300), "é/ü?&=#", "\u{0}\u{1F}", String(repeating: "ß", count: 70_000)]
    #expect(PackedItemIDs(ids).ids == ids && PackedItemIDs(ids).count == ids.count)
    #expect(PackedItemIDs([]).ids.isEmpty)
}
