import Domain
import Foundation
@testable import Presentation
import Testing

@Suite("Item records: an item through the spool's bytes comes back the same")
struct ItemRecordTests {
    static let items: [Item] = [
        Item(kind: .record, id: "", title: ""),
        Item(
            kind: .issue, id: "acme/app#12", title: SampleReports.trickyTitle, subtitle: "sub\u{0}title",
            url: URL(string: "https://example.com/a?b=1&c=%20#frag"), date: Date(timeIntervalSinceReferenceDate: 1e-9),
            fields: [
                "null": .null, "yes": true, "no": false, "int": .int(Int.min), "big": .int(Int.max), "double": 0.1,
                "negative": -2.5e300, "text": "東京 👍🏽 e\u{301}", "list": [1, "two", [3.5], ["k": nil]],
                "object": ["z": ["deep": [true]], "": "empty key"],
            ]),
        Item(kind: .entry, id: "g", title: "t", date: SampleReports.date("2026-11-22T10:00:00Z"),
             fields: ["summary": .string(String(repeating: "long ", count: 10_000))]),
    ]

    @Test("every value type, empty and long strings, odd dates and URLs round-trip")
    func roundTrip() {
        var bytes: [UInt8] = []
        for (index, item) in Self.items.enumerated() { ItemRecord.append(item, source: index * 1000, to: &bytes) }
        var offset = 0
        for (index, item) in Self.items.enumerated() {
            let read = bytes.withUnsafeBytes { all -> (length: Int, source: Int, item: Item)? in
                let rest = UnsafeRawBufferPointer(rebasing: all[offset...])
                guard let length = ItemRecord.length(rest) else { return nil }
                let (source, item) = ItemRecord.read(UnsafeRawBufferPointer(rebasing: rest[0..<length]))
                return (length, source, item)
            }
            #expect(read?.source == index * 1000)
            #expect(read?.item == item)
            offset += read?.length ?? bytes.count
        }
        #expect(offset == bytes.count)
    }

    @Test("a length prefix cut short says so instead of guessing")
    func shortPrefix() {
        var bytes: [UInt8] = []
        ItemRecord.append(Self.items[2], source: 0, to: &bytes)
        bytes.withUnsafeBytes { all in
            #expect(ItemRecord.length(UnsafeRawBufferPointer(rebasing: all[0..<1])) == nil)
            #expect(ItemRecord.length(all) == bytes.count)
        }
    }
}
