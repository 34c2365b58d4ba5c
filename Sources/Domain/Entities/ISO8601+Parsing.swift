import Foundation

extension ISO8601 {
    /// Parses `2026-11-22T10:00:00Z`, with or without fractional seconds, with `Z` or a numeric offset,
    /// or a plain `2026-11-22` date (taken as midnight UTC).
    ///
    /// The common shapes are read from bytes (`fastDate`), with the values Foundation gives them; anything else goes
    /// through Foundation's ISO 8601 format styles. (Why: BENCHMARKS.md, "Figures behind the code".)
    public static func date(from string: String) -> Date? {
        var string = string
        return string.withUTF8 { fastDate($0) } ?? foundationDate(from: string)
    }

    /// `date(from:)` through Foundation's format styles alone.
    static func foundationDate(from string: String) -> Date? {
        if let date = try? Date(string, strategy: .iso8601) { return date }
        if let date = try? Date(string, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        if string.count == 10, let date = try? Date(string, strategy: .iso8601.year().month().day()) {
            return date
        }
        return nil
    }

    /// The common shapes, `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`, read from bytes when
    /// every part is in range; nil for any other text, which `date(from:)` hands to Foundation's format styles.
    static func fastDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == 10 || bytes.count >= 20 else { return nil }
        guard let year = number(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"),
            let month = number(bytes, 5, 2), bytes[7] == UInt8(ascii: "-"),
            let day = number(bytes, 8, 2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        if bytes.count == 10 { return Date(timeIntervalSince1970: Double(days * 86_400)) }

        guard bytes[10] == UInt8(ascii: "T"),
            let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"),
            let minute = number(bytes, 14, 2), bytes[16] == UInt8(ascii: ":"),
            let second = number(bytes, 17, 2),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var scale = 0.1
            while index < bytes.count, let digit = digit(bytes[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index < bytes.count else { return nil }
        }
        let offsetSeconds: Int
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            guard index + 1 == bytes.count else { return nil }
            offsetSeconds = 0
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            let rest = bytes.count - index - 1
            guard let offsetHours = number(bytes, index + 1, 2), offsetHours < 24 else { return nil }
            let offsetMinutes: Int?
            if rest == 5, bytes[index + 3] == UInt8(ascii: ":") {
                offsetMinutes = number(bytes, index + 4, 2)
            } else if rest == 4 {
                offsetMinutes = number(bytes, index + 3, 2)
            } else {
                return nil
            }
            guard let offsetMinutes, offsetMinutes < 60 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        default:
            return nil
        }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for index in start..<(start + count) {
            guard let digit = digit(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
