import App
import Foundation
@testable import Server
import Testing

@Suite("serve: reader ids and feeds")
struct ReaderUnitTests {
    @Test("an item id is read in every form clients send", arguments: [
        ("42", 42), ("000000000000002a", 42), ("tag:google.com,2005:reader/item/000000000000002a", 42),
        ("tag:google.com,2005:reader/item/2a", 42), ("2a", 42), ("ffffffffffffffff", -1),
    ] as [(String, Int64)])
    func itemIDs(text: String, id: Int64) throws {
        #expect(try ReaderItemID.parse(text) == id)
    }

    @Test("the long form is 16 hex digits and reads back", arguments: [1, 42, 1 << 40, Int64.max] as [Int64])
    func longForm(id: Int64) throws {
        let long = ReaderItemID.long(id)
        #expect(long.count == ReaderItemID.longPrefix.count + 16)
        #expect(try ReaderItemID.parse(long) == id)
    }

    @Test("ids that are none of the forms are refused", arguments: ["", "x", "tag:google.com,2005:reader/item/", "12345678901234567890", "1.5"])
    func badItemIDs(text: String) {
        #expect(throws: ReaderProblem.self) { try ReaderItemID.parse(text) }
    }

    @Test("Fever feed and group ids are positive 32-bit numbers, distinct, and the same whatever the manifest's order")
    func feverIDs() {
        let feeds = (0..<2_000).map { ReaderFeed(id: "source-\($0)", tags: ["tag-\($0 % 7)"], url: nil) }
        let directory = ReaderDirectory(feeds)
        let numbers = feeds.compactMap { directory.feverFeedIDs[$0.id] }
        #expect(numbers.count == feeds.count && Set(numbers).count == feeds.count)
        #expect(numbers.allSatisfy { $0 > 0 && $0 <= Int(Int32.max) })
        let reordered = ReaderDirectory(Array(feeds.reversed()))
        #expect(feeds.allSatisfy { reordered.feverFeedIDs[$0.id] == directory.feverFeedIDs[$0.id] })
        #expect(directory.source(feverFeed: numbers[5]) == "source-5")
        #expect(directory.tags.count == 7 && directory.tags.allSatisfy { directory.tag(feverGroup: directory.feverGroupIDs[$0] ?? 0) == $0 })
    }
}
