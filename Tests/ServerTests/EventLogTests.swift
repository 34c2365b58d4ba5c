@testable import Server
import Testing

@Suite("EventLog: the ring of server-sent events")
struct EventLogTests {
    @Test("ids increase from 1; what follows an id comes back in order, in pages of at most limit")
    func order() throws {
        let log = EventLog(capacity: 8)
        #expect(log.lastID == 0)
        #expect(log.events(after: 0) == [])
        for index in 1...5 { #expect(log.publish("item", data: "\(index)") == index) }
        #expect(try #require(log.events(after: 0)).map(\.data) == ["1", "2", "3", "4", "5"])
        #expect(try #require(log.events(after: 3)).map(\.id) == [4, 5])
        #expect(try #require(log.events(after: 1, limit: 2)).map(\.id) == [2, 3])
        #expect(log.events(after: 5) == [])
    }

    @Test("once the ring wrapped, the newest capacity events are kept and an older id cannot resume")
    func wrap() throws {
        let log = EventLog(capacity: 1000)
        for index in 1...2500 { log.publish("item", data: "\(index)") }
        #expect(log.oldestID == 1501)
        #expect(try #require(log.events(after: 1500, limit: 2000)).map(\.id) == Array(1501...2500))
        #expect(try #require(log.events(after: 2400, limit: 2000)).count == 100)
        #expect(log.events(after: 1499) == nil, "event 1500 is gone: resuming from 1499 would lose it")
    }

    @Test("at most maxClients subscribe; a client that leaves frees its place; closing ends every stream")
    func clients() async {
        let log = EventLog(capacity: 4, maxClients: 2)
        let first = log.subscribe()
        let second = log.subscribe()
        #expect(first != nil && second != nil)
        #expect(log.subscribe() == nil)
        log.unsubscribe(second!.id)
        #expect(log.clientCount == 1)
        let third = log.subscribe()
        #expect(third != nil)
        log.publish("source", data: "{}")
        var wakeUps = first!.wakeUps.makeAsyncIterator()
        #expect(await wakeUps.next() != nil, "a publish wakes the client")
        log.close()
        #expect(await wakeUps.next() == nil, "closed: the stream ends")
        #expect(log.subscribe() == nil)
    }
}
