import Domain
import Foundation
import ProviderTesting
import Testing

@Suite("ISO 8601 timestamps of the output contract")
struct ISO8601Tests {
    /// The format the output contract had before `ISO8601.string(from:)` was written by hand.
    static func foundation(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
            .timeSeparator(.colon).timeZone(separator: .omitted))
    }


    @Test("known instants, leap days, fractions dropped towards the past, and the calendar's edges", arguments: [
        (0, "1970-01-01T00:00:00Z"), (-0.5, "1969-12-31T23:59:59Z"), (-0.000_001, "1969-12-31T23:59:59Z"),
        (0.999, "1970-01-01T00:00:00Z"), (951_782_400, "2000-02-29T00:00:00Z"), (4_107_456_000, "2100-02-28T00:00:00Z"),
        (1_795_341_600, "2026-11-22T10:00:00Z"), (-12_219_292_800, "1582-10-15T00:00:00Z"),
        (-12_219_292_801, "1582-10-04T23:59:59Z"), (253_402_300_799.5, "9999-12-31T23:59:59Z"),
        (253_402_300_800, "10000-01-01T00:00:00Z"), (-62_135_596_800, "0001-01-03T00:00:00Z"),
    ] as [(TimeInterval, String)])
    func knownInstants(seconds: TimeInterval, expected: String) {
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test("matches Foundation's format style on every day boundary of leap-rule years and 100,000 random instants")
    func matchesFoundation() async {
        // 100,000 dates take seconds in a debug build: on a thread of its own, not the shared pool.
        let mismatches = await onOwnThread { Self.mismatchesWithFoundation() }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map { ($0.timeIntervalSinceReferenceDate, Self.foundation($0), ISO8601.string(from: $0)) })")
    }

    static func mismatchesWithFoundation() -> [Date] {
        var dates: [Date] = []
        for year in [1583, 1600, 1700, 1899, 1900, 1969, 1970, 1999, 2000, 2024, 2038, 2100, 2400, 9999] {
            let newYear = (Double(year - 2001) * 365.2425 * 86_400 / 86_400).rounded(.down) * 86_400
            for day in -1...366 {
                for offset in [-1, -0.000_1, 0, 0.000_1, 1, 43_200.5, 86_399.999] {
                    dates.append(Date(timeIntervalSinceReferenceDate: newYear + Double(day) * 86_400 + offset))
                }
            }
        }
        var random = SeededRandom(state: 2026)
        for _ in 0..<60_000 {  // 1582 … 9999, any fraction
            dates.append(Date(timeIntervalSinceReferenceDate: .random(in: -13_197_600_000..<252_423_993_600, using: &random)))
        }
        for _ in 0..<30_000 {  // whole seconds and fractions a hair either side of them
            let whole = Double(Int64.random(in: -13_197_600_000..<252_423_993_600, using: &random))
            dates.append(Date(timeIntervalSinceReferenceDate: whole + [0, 0.5, 0.999_999_9, -0.000_000_1].randomElement(using: &random)!))
        }
        for _ in 0..<10_000 {  // far past (Julian calendar, negative years) and far future: the format style answers
            dates.append(Date(timeIntervalSinceReferenceDate: .random(in: -1e13...1e13, using: &random)))
        }
        return dates.filter { ISO8601.string(from: $0) != Self.foundation($0) }
    }
}
