import Foundation
@testable import Server
import Testing

@Suite("serve: the new-items count of the last hour")
struct HourlyCountTests {
    @Test("counts what happened in the last 60 minutes, forgets older minutes, and reuses a slot an hour later")
    func window() {
        var count = HourlyCount()
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        count.add(5, at: start)
        count.add(2, at: start.addingTimeInterval(30 * 60))
        #expect(count.total(at: start.addingTimeInterval(31 * 60)) == 7)
        #expect(count.total(at: start.addingTimeInterval(61 * 60)) == 2, "the first minute is over an hour old")
        count.add(1, at: start.addingTimeInterval(60 * 60))  // the first minute's slot, an hour on
        #expect(count.total(at: start.addingTimeInterval(60 * 60)) == 3)
        #expect(count.total(at: start.addingTimeInterval(200 * 60)) == 0)
    }
}
