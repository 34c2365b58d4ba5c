import Foundation
import Testing

@testable import Domain

@Suite("ISO 8601 parsing: the bytes path gives what Foundation's format styles give")
struct ISO8601ParsingTests {
    @Test("the fast path agrees with Foundation's ISO 8601 format styles", arguments: [
        "2026-11-20", "2026-11-20T08:00:00Z", "2026-11-20T17:00:00+09:00", "2026-11-20T03:30:00-0430",
        "1969-07-20T20:17:40Z", "2000-02-29T23:59:59Z", "2024-02-29", "1900-03-01T00:00:00Z",
        "2026-11-20T08:00:00.250Z", "2026-11-20T08:00:00.5+01:00",
    ])
    func agreesWithDomain(text: String) throws {
        let expected = try #require(ISO8601.foundationDate(from: text))
        let fast = try #require(text.utf8.withContiguousStorageIfAvailable { ISO8601.fastDate($0) } ?? nil)
        #expect(abs(fast.timeIntervalSince(expected)) < 0.001)
    }

    @Test("shapes the fast path does not fully check are left to the general parser", arguments: [
        "2026-02-30", "2026-13-01", "2026-11-20T24:00:00Z", "2026-11-20T08:00:00", "2026-11-20 08:00:00Z",
        "2026-11-20T08:00:00.Z", "2026-11-20T08:00:00+9", "20261120", "next Tuesday", "2026-11-20T08:00:60Z",
    ])
    func fallsBack(text: String) {
        let fast = text.utf8.withContiguousStorageIfAvailable { ISO8601.fastDate($0) } ?? nil
        #expect(fast == nil)
        #expect(ISO8601.date(from: text) == ISO8601.foundationDate(from: text))
    }
}
