import Foundation

/// The one timestamp format of the output contract: `2026-11-22T10:00:00Z` (UTC, whole seconds).
public enum ISO8601 {
    /// Formats `date` exactly as Foundation's
    /// `.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
    /// .timeSeparator(.colon).timeZone(separator: .omitted)` does (fraction of a second dropped towards the
    /// past), by arithmetic for the years 1582 (from the Gregorian calendar's first day) to 9999 and by that
    /// format style outside them.
    ///
    /// Within those years it never touches ICU (what the format style costs: BENCHMARKS.md, "Cold start").
    public static func string(from date: Date) -> String {
        let reference = date.timeIntervalSinceReferenceDate
        guard gregorianSeconds.contains(reference) else { return formatStyleString(from: date) }
        let seconds = Int64(reference.rounded(.down)) + secondsFrom1970ToReferenceDate
        let days = floorDivision(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDaysSince1970: days)
        return String(unsafeUninitializedCapacity: 20) { buffer in
            func put(_ value: Int64, width: Int, at offset: Int) {
                var value = value
                for index in (offset..<offset + width).reversed() {
                    buffer[index] = UInt8(truncatingIfNeeded: value % 10) + UInt8(ascii: "0")
                    value /= 10
                }
            }
            put(year, width: 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, width: 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, width: 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, width: 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, width: 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, width: 2, at: 17)
            buffer[19] = UInt8(ascii: "Z")
            return 20
        }
    }

    /// What `string(from:)` matches, and its answer outside `gregorianSeconds`.
    private static func formatStyleString(from date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
            .timeSeparator(.colon).timeZone(separator: .omitted))
    }

    /// 1582-10-15T00:00:00Z (Foundation formats earlier dates in the Julian calendar) up to, not including,
    /// 10000-01-01T00:00:00Z, in seconds since the reference date (2001-01-01).
    private static let gregorianSeconds: Range<TimeInterval> = -13_197_600_000 ..< 252_423_993_600

    private static let secondsFrom1970ToReferenceDate: Int64 = 978_307_200

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// Year, month and day of the proleptic Gregorian calendar (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDaysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = floorDivision(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097  // 0...146_096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // from March 1st
        let monthFromMarch = (5 * dayOfYear + 2) / 153  // 0...11
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
