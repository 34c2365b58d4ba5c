import Foundation
import Synchronization

/// Dates as feeds write them: RFC 822 (`pubDate`) and ISO 8601 / RFC 3339 (Atom, `dc:date`).
///
/// Hand-written over UTF-8 bytes, without `DateFormatter`, since a feed has a date per entry (what a formatter
/// costs: BENCHMARKS.md, "Figures behind the code"). A few rarer shapes (asctime, slashes) fall back to
/// formatters. Anything else is nil: the entry is kept without a date.
public enum FeedDateParser {
    public static func date(from text: String) -> Date? {
        var text = text
        let fast = text.withUTF8 { bytes -> Date? in
            var scanner = DateScanner(bytes)
            scanner.skipSpaces()
            if scanner.startsWithFourDigits, let date = parseISO8601(&scanner) { return date }
            var rfc = DateScanner(bytes)
            return parseRFC822(&rfc)
        }
        return fast ?? FallbackFormats.date(from: text)
    }

    // MARK: - RFC 822

    /// `[Wkd,] DD Mon YY[YY] HH:MM[:SS] [zone]`, also with `-` between the date parts (RFC 850), the month
    /// first (`Jul 6, 2014 …`), full month names, a missing time or zone (UTC), and day and month names in
    /// other languages (`Seg, 24 Set 2018`, `mar., 5 févr. 2019`, `24 de setembro de 2018`; `MonthNames`).
    ///
    /// Up to two words before the day are a weekday, in any language, unless no month name follows the day: then the
    /// last of them is the month (`Jul 6, 2014`, `Sunday, July 6, 2014`). So weekday names that are also
    /// month abbreviations elsewhere (Spanish and French `mar.` for Tuesday) are read by their place.
    private static func parseRFC822(_ scanner: inout DateScanner) -> Date? {
        scanner.skipSpaces()
        var leadingWord: DateScanner.Word?
        if scanner.peekIsWordStart {
            leadingWord = scanner.readName()
            scanner.skipSeparators()
            if scanner.peekIsWordStart {  // `Segunda-feira, 24 …`, `Sunday, July 6 …`
                leadingWord = scanner.readName()
                scanner.skipSeparators()
            }
        }
        guard let day = scanner.readNumber(maxDigits: 2) else { return nil }
        scanner.skipSeparators()
        let month: Int
        if scanner.peekIsWordStart {
            guard let named = readMonthName(&scanner) else { return nil }
            month = named
        } else {
            guard let leadingWord, let leadingMonth = MonthNames.month(of: leadingWord) else { return nil }
            month = leadingMonth
        }
        scanner.skipSeparators()
        guard let (rawYear, yearDigits) = scanner.readNumberWithCount(maxDigits: 4) else {
            return nil
        }
        let year: Int
        switch yearDigits {
        case 4: year = rawYear
        case 3: year = rawYear + 1900  // RFC 2822 obsolete form
        default: year = rawYear < 50 ? 2000 + rawYear : 1900 + rawYear
        }
        scanner.skipSpaces()
        var hour = 0, minute = 0, second = 0
        var nanos = 0
        if let value = scanner.readNumber(maxDigits: 2) {
            hour = value
            guard scanner.consume(UInt8(ascii: ":")), let minutes = scanner.readNumber(maxDigits: 2) else { return nil }
            minute = minutes
            if scanner.consume(UInt8(ascii: ":")) {
                guard let seconds = scanner.readNumber(maxDigits: 2) else { return nil }
                second = seconds
                nanos = scanner.readFraction()
            }
        }
        scanner.skipSpaces()
        guard let offset = readZone(&scanner, named: true) else { return nil }
        return makeDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                        nanoseconds: nanos, offsetSeconds: offset)
    }

    // MARK: - ISO 8601

    /// `YYYY[-MM[-DD]][(T| )hh:mm[:ss[.fff]]][Z|±hh[:mm]]`, also without the `-` and `:` separators.
    private static func parseISO8601(_ scanner: inout DateScanner) -> Date? {
        guard let year = scanner.readNumber(exactly: 4) else { return nil }
        var month = 1, day = 1
        let dashed = scanner.consume(UInt8(ascii: "-"))
        if let value = scanner.readNumber(exactly: 2) {
            month = value
            if dashed ? scanner.consume(UInt8(ascii: "-")) : true, let value = scanner.readNumber(exactly: 2) {
                day = value
            }
        }
        var hour = 0, minute = 0, second = 0, nanos = 0
        if scanner.consume(UInt8(ascii: "T")) || scanner.consume(UInt8(ascii: "t")) || scanner.consume(UInt8(ascii: " ")) {
            guard let hours = scanner.readNumber(exactly: 2) else { return nil }
            hour = hours
            let colon = scanner.consume(UInt8(ascii: ":"))
            guard let minutes = scanner.readNumber(exactly: 2) else { return nil }
            minute = minutes
            if colon ? scanner.consume(UInt8(ascii: ":")) : scanner.peekIsDigit {
                guard let seconds = scanner.readNumber(exactly: 2) else { return nil }
                second = seconds
                nanos = scanner.readFraction()
            }
        }
        scanner.skipSpaces()
        guard let offset = readZone(&scanner, named: false) else { return nil }
        return makeDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                        nanoseconds: nanos, offsetSeconds: offset)
    }

    /// The month name after the day, past a `de`/`del` on either side of it; nil when the word there is not
    /// a month name.
    private static func readMonthName(_ scanner: inout DateScanner) -> Int? {
        var word = scanner.readName()
        if MonthNames.isConnective(word) {
            scanner.skipSeparators()
            word = scanner.readName()
        }
        guard let month = MonthNames.month(of: word) else { return nil }
        scanner.skipSeparators()
        if scanner.peekIsWordStart {
            guard MonthNames.isConnective(scanner.readWord()) else { return nil }
        }
        return month
    }

    // MARK: - Zones

    /// Seconds east of UTC; nil when the text there is not a zone. Nothing at all means UTC.
    private static func readZone(_ scanner: inout DateScanner, named: Bool) -> Int? {
        guard let byte = scanner.peek else { return 0 }
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
            scanner.advance()
            let sign = byte == UInt8(ascii: "-") ? -1 : 1
            guard let hours = scanner.readNumber(exactly: 2) else { return nil }
            var minutes = 0
            let colon = scanner.consume(UInt8(ascii: ":"))
            if let value = scanner.readNumber(exactly: 2) {
                minutes = value
            } else if colon {
                return nil
            }
            guard hours <= 14, minutes < 60 else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
        if byte == UInt8(ascii: "Z") || byte == UInt8(ascii: "z"), !named || scanner.remaining == 1 { return 0 }
        guard named, scanner.peekIsLetter else { return scanner.atEnd ? 0 : nil }
        let word = scanner.readWord()
        // "GMT+2", "UTC-0500": an offset written after the name.
        if word.key == 0x676D74 || word.key == 0x757463 || word.key == 0x7574, let sign = scanner.peek,
            sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-")
        {
            return readLooseOffset(&scanner)
        }
        return namedZoneOffset(word) ?? 0  // an unknown name reads as UTC, like Python's email.utils
    }

    /// `+2`, `-05`, `+0530` after a zone name.
    private static func readLooseOffset(_ scanner: inout DateScanner) -> Int? {
        guard let sign = scanner.peek else { return nil }
        scanner.advance()
        guard let (value, digits) = scanner.readNumberWithCount(maxDigits: 4) else { return nil }
        let seconds = digits <= 2 ? value * 3600 : (value / 100) * 3600 + (value % 100) * 60
        guard seconds <= 14 * 3600 else { return nil }
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// RFC 822 zone names and military letters (with RFC 822's signs, as feedparser reads them), plus a
    /// few common names real feeds use. In seconds east of UTC.
    static func namedZoneOffset(_ word: DateScanner.Word) -> Int? {
        let hours: Double
        if word.length == 1 {
            let letter = UInt32(word.key) - 0x20  // upper case
            switch letter {
            case 0x5A: hours = 0  // Z
            case 0x41...0x49: hours = -Double(letter - 0x40)  // A–I: -1…-9
            case 0x4B...0x4D: hours = -Double(letter - 0x41)  // K–M: -10…-12 (J is not used)
            case 0x4E...0x59: hours = Double(letter - 0x4D)  // N–Y: +1…+12
            default: return nil
            }
            return Int(hours * 3600)
        }
        guard word.length <= 4 else { return nil }
        switch word.key {
        case 0x676D74, 0x7574, 0x757463, 0x7A, 0x776574: hours = 0  // GMT UT UTC Z WET
        case 0x657374: hours = -5  // EST
        case 0x656474: hours = -4  // EDT
        case 0x637374: hours = -6  // CST
        case 0x636474: hours = -5  // CDT
        case 0x6D7374: hours = -7  // MST
        case 0x6D6474: hours = -6  // MDT
        case 0x707374: hours = -8  // PST
        case 0x706474: hours = -7  // PDT
        case 0x617374: hours = -4  // AST
        case 0x616474, 0x627274: hours = -3  // ADT BRT
        case 0x616B7374: hours = -9  // AKST
        case 0x616B6474: hours = -8  // AKDT
        case 0x687374: hours = -10  // HST
        case 0x627374, 0x636574, 0x77657374, 0x6D657A: hours = 1  // BST CET WEST MEZ
        case 0x63657374, 0x656574, 0x6D65737A: hours = 2  // CEST EET MESZ
        case 0x65657374, 0x6D736B: hours = 3  // EEST MSK
        case 0x697374: hours = 5.5  // IST
        case 0x736774, 0x686B74, 0x61777374: hours = 8  // SGT HKT AWST
        case 0x6A7374, 0x6B7374: hours = 9  // JST KST
        case 0x61657374: hours = 10  // AEST
        case 0x61656474: hours = 11  // AEDT
        case 0x6E7A7374: hours = 12  // NZST
        case 0x6E7A6474: hours = 13  // NZDT
        default: return nil
        }
        return Int(hours * 3600)
    }

    // MARK: - Calendar

    private static func makeDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                                 nanoseconds: Int, offsetSeconds: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour), (0...59).contains(minute),
            (0...60).contains(second), year > 0
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// The slow path: formatters for the shapes the hand-written parsers do not take.
private enum FallbackFormats {
    private static let formatters = Mutex<[DateFormatter]>(
        [
            "EEE MMM d HH:mm:ss zzz yyyy",  // asctime with a zone (`date` output)
            "EEE MMM d HH:mm:ss yyyy",
            "yyyy/MM/dd HH:mm:ss",
            "yyyy/MM/dd",
            "MMMM d, yyyy h:mm a",
            "MMMM d, yyyy",
        ].map { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            formatter.dateFormat = format
            return formatter
        })

    static func date(from text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        return formatters.withLock { formatters in
            for formatter in formatters {
                if let date = formatter.date(from: trimmed) { return date }
            }
            return nil
        }
    }
}
