import Foundation

/// How many things happened in the last hour, by the minute: 60 counters in a ring, so the memory is the same
/// whatever the rate (the dashboard's "new in the last hour").
struct HourlyCount: Sendable {
    private var minutes = [Int](repeating: -1, count: 60)
    private var counts = [Int](repeating: 0, count: 60)

    mutating func add(_ count: Int, at date: Date) {
        let minute = Int(date.timeIntervalSince1970 / 60)
        let slot = minute % 60
        if minutes[slot] != minute {
            minutes[slot] = minute
            counts[slot] = 0
        }
        counts[slot] += count
    }

    /// The count over the 60 minutes up to `date` (to the minute).
    func total(at date: Date) -> Int {
        let now = Int(date.timeIntervalSince1970 / 60)
        return zip(minutes, counts).reduce(0) { total, entry in
            entry.0 > now - 60 && entry.0 <= now ? total + entry.1 : total
        }
    }
}
