import Foundation
import HTTPClient
import ProviderTesting
@testable import Server
import Testing

/// An `/events` client: reads the stream line by line as it comes and gathers the lines into events.
final class EventStreamClient {
    struct Event: Equatable {
        var id: Int?
        var name: String
        var data: String
    }

    private let stream: LoopbackStream
    var status: Int { stream.status }

    init(_ harness: ServeHarness, lastEventID: Int? = nil, headers: [(String, String)] = []) async throws {
        guard let url = URL(string: harness.base + "/events") else { throw URLError(.badURL) }
        var request = HTTPRequest(url: url, headers: HTTPHeaders(headers))
        if let lastEventID { request.headers.add("Last-Event-ID", String(lastEventID)) }
        stream = try await LoopbackClient.open(request, timeout: .seconds(60))
    }

    /// The next event (comments and events without an id skipped), nil when the stream ended.
    func next() async throws -> Event? {
        var event = Event(id: nil, name: "message", data: "")
        var isEvent = false
        while let line = try await stream.nextLine() {
            if line.isEmpty {
                if isEvent, event.id != nil { return event }
                event = Event(id: nil, name: "message", data: "")
                isEvent = false
            }
            if line.hasPrefix("id: ") { event.id = Int(line.dropFirst(4)); isEvent = true }
            if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)); isEvent = true }
            if line.hasPrefix("data: ") { event.data = String(line.dropFirst(6)); isEvent = true }
        }
        return nil
    }

    /// Events until `count` of them matched `predicate` (all events read are returned).
    func events(until count: Int, where predicate: (Event) -> Bool) async throws -> [Event] {
        var read: [Event] = []
        while read.filter(predicate).count < count, let event = try await next() { read.append(event) }
        return read
    }
}

@Suite("serve: server-sent events")
struct EventsEndToEndTests {
    static let manifest = """
        {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
          {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}}
        ]}
        """

    @Test("a source event when a source's state changes, an item event per new item; Last-Event-ID resumes without loss")
    func liveAndResume() async throws {
        let harness = try await ServeHarness.start(
            manifest: Self.manifest, files: ["data/notes.ndjson": ndjson([("a", "A", nil), ("b", "B", nil)])])
        try await harness.ready()
        let client = try await EventStreamClient(harness)
        #expect(client.status == 200)

        try harness.write("data/notes.ndjson", ndjson([("a", "A", nil), ("b", "B", nil), ("c", "C", nil)]))
        #expect(harness.server.watcher.refresh("notes"))
        // Read until the new item and the source's finished state both came, whatever their order.
        var first: [EventStreamClient.Event] = []
        func isFinished(_ event: EventStreamClient.Event) -> Bool {
            event.name == "source" && event.data.contains(#""running":false"#) && event.data.contains(#""itemCount":3"#)
        }
        while !(first.contains { $0.name == "item" } && first.contains(where: isFinished)), let event = try await client.next() {
            first.append(event)
        }
        #expect(first.contains { $0.name == "source" && $0.data.contains(#""running":true"#) }, "the source started: its state changed")
        let items = first.filter { $0.name == "item" }
        #expect(items.count == 1, "only the new item")
        let item = try #require(items.first)
        let itemJSON = try #require(try JSONSerialization.jsonObject(with: Data(item.data.utf8)) as? [String: Any])
        #expect(itemJSON["id"] as? String == "c")
        #expect(itemJSON["source"] as? String == "notes")
        let ids = first.compactMap(\.id)
        #expect(ids == ids.sorted() && Set(ids).count == ids.count)
        #expect(first.contains(where: isFinished))
        let lastSeen = try #require(first.last?.id)

        // Gone for a while: two more items appear; reconnecting with the last id gets exactly what was missed.
        try harness.write("data/notes.ndjson", ndjson([("a", "A", nil), ("b", "B", nil), ("c", "C", nil), ("d", "D", nil), ("e", "E", nil)]))
        #expect(harness.server.watcher.refresh("notes"))
        try await harness.poll("/api/sources") { $0.text.contains(#""itemCount":5"#) && $0.text.contains(#""running":false"#) }
        let resumed = try await EventStreamClient(harness, lastEventID: lastSeen)
        let missed = try await resumed.events(until: 2) { $0.name == "item" }
        #expect(missed.first?.id == lastSeen + 1, "resumes right after the last id seen")
        #expect(missed.filter { $0.name == "item" }.map { $0.data.contains(#""id":"d""#) || $0.data.contains(#""id":"e""#) } == [true, true])
        try await harness.stop()
    }

    @Test("each item is announced once: not again when it leaves and comes back, nor by a restarted server over the same store")
    func announcedOnce() async throws {
        // Both servers serve one directory: the same manifest, files and data directory (the source's identity).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        func announced(_ harness: ServeHarness, until last: String) async throws -> [String] {
            let client = try await EventStreamClient(harness, lastEventID: 0)
            let events = try await client.events(until: 1) { $0.name == "item" && $0.data.contains(#""id":"\#(last)""#) }
            return try events.filter { $0.name == "item" }.map { event in
                let item = try #require(try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any])
                return try #require(item["id"] as? String)
            }
        }
        func cycle(_ harness: ServeHarness, _ ids: [String]) async throws {
            try harness.write("data/notes.ndjson", ndjson(ids.map { ($0, $0.uppercased(), nil) }))
            #expect(harness.server.watcher.refresh("notes"))
            try await harness.poll("/api/sources") {
                $0.text.contains(#""itemCount":\#(ids.count)"#) && $0.text.contains(#""running":false"#)
            }
        }
        let first = try await ServeHarness.start(
            manifest: Self.manifest, files: ["data/notes.ndjson": ndjson([("a", "A", nil), ("b", "B", nil)])], in: directory)
        try await first.ready()
        try await cycle(first, ["b"])            // a leaves…
        try await cycle(first, ["a", "b", "c"])  // …and comes back with c
        try await cycle(first, ["a", "b", "c", "d"])
        #expect(try await announced(first, until: "d") == ["a", "b", "c", "d"])
        try await first.stop()

        let restarted = try await ServeHarness.start(
            manifest: Self.manifest,
            files: ["data/notes.ndjson": ndjson([("a", "A", nil), ("b", "B", nil), ("c", "C", nil), ("d", "D", nil), ("e", "E", nil)])],
            in: directory)
        try await restarted.ready()
        #expect(try await announced(restarted, until: "e") == ["e"], "what the store's history saw is not announced again")
        try await restarted.stop()
    }

    @Test("the ring keeps at least 1,000 events for a resume; a client over the cap gets a 503; shutdown ends the streams")
    func ringAndCap() async throws {
        let rows = (1...1200).map { ("r\($0)", "Row \($0)", nil as String?) }
        let harness = try await ServeHarness.start(
            manifest: Self.manifest, files: ["data/notes.ndjson": ndjson([])], maxEventClients: 2)
        try await harness.ready()
        let startID = harness.server.state.events.lastID
        try harness.write("data/notes.ndjson", ndjson(rows))
        #expect(harness.server.watcher.refresh("notes"))
        try await harness.poll("/api/sources") { $0.text.contains(#""itemCount":1200"#) }
        let resumed = try await EventStreamClient(harness, lastEventID: startID)
        let events = try await resumed.events(until: 1200) { $0.name == "item" }
        #expect(events.filter { $0.name == "item" }.count == 1200, "every item event after the id, none lost")
        let second = try await EventStreamClient(harness)
        #expect(second.status == 200)
        let third = try await EventStreamClient(harness)
        #expect(third.status == 503)
        try await harness.stop()
        #expect(try await second.next() == nil, "the stream ended with the server")
    }
}
