@testable import Presentation
import Testing

@Suite("Spool order: a date order sorted in runs on disk and merged")
struct SpoolOrderTests {
    /// Entries over 3 sources with few distinct dates (many ties) and undated ones, in arrival order.
    static let entries: [ItemSpool.Entry] = (0..<200).map { index in
        let source = UInt64(index / 70)
        let date = index % 9 == 0 ? -Double.infinity : Double((index * 7) % 5)
        return ItemSpool.Entry(date: date, place: source << 48 | UInt64(index * 100))
    }

    private func merged(_ comparison: SpoolOrder.Comparison, runLength: Int) -> [Int] {
        var order = SpoolOrder(comparison, runLength: runLength)
        for entry in Self.entries { order.add(entry) }
        let places = order.finish(sources: 3)
        let cursor = SpoolCursor(SpoolFile.closed, places: places)
        defer { cursor.close() }
        var reader = PlaceReader(0..<cursor.placeCount)
        var offsets: [Int] = []
        while let place = cursor.next(&reader) { offsets.append(place.offset) }
        #expect(cursor.failure == nil)
        return offsets
    }

    @Test("runs of any length merge into the in-memory stable sort's order", arguments: [1, 7, 64, 200, 1000])
    func mergeMatchesSort(runLength: Int) {
        for comparison in [SpoolOrder.Comparison.newestFirst, .bySourceNewestFirst] {
            let expected = Self.entries.enumerated()
                .sorted { lhs, rhs in
                    if comparison == .bySourceNewestFirst, lhs.element.source != rhs.element.source {
                        return lhs.element.source < rhs.element.source
                    }
                    if lhs.element.date != rhs.element.date { return lhs.element.date > rhs.element.date }
                    return lhs.offset < rhs.offset
                }
                .map(\.element.offset)
            #expect(merged(comparison, runLength: runLength) == expected)
        }
    }

    @Test("each source's range in a by-source order")
    func sourceRanges() {
        var order = SpoolOrder(.bySourceNewestFirst, runLength: 16)
        for entry in Self.entries { order.add(entry) }
        let places = order.finish(sources: 4)
        #expect(places.range(of: 0) == 0..<70)
        #expect(places.range(of: 1) == 70..<140)
        #expect(places.range(of: 2) == 140..<200)
        #expect(places.range(of: 3) == 200..<200)
    }
}
